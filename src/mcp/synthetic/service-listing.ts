import type { SyntheticTool } from "./types.js";
import { serviceOnly } from "./types.js";
import { okJson } from "../tool-outcome.js";

export const serviceListingTool: SyntheticTool = {
  name: "motebit_service_listing",
  description:
    "Describes this service motebit: name, description, URL, capabilities, terms, and the tools you may call with their risk levels.",
  inputSchema: { type: "object", properties: {} },
  risk: 0,
  offered: serviceOnly,
  async run(_args, m, c) {
    const doc = m.identityDoc;
    const tools = m.callableTools(c.principal);
    return okJson({
      motebit_id: m.motebitId,
      did: m.did,
      public_key: m.publicKeyHex,
      service_name: doc?.service_name ?? null,
      service_description: doc?.service_description ?? null,
      service_url: doc?.service_url ?? null,
      terms_url: doc?.terms_url ?? null,
      // Declared capabilities win; otherwise what is actually served is the capability list.
      capabilities: doc?.capabilities ?? tools.filter((t) => !t.name.startsWith("motebit_")).map((t) => t.name),
      tools,
    });
  },
};

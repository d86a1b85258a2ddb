import type { SyntheticTool } from "./types.js";
import { serviceOnly } from "./types.js";
import { okJson } from "../tool-outcome.js";

/**
 * An AgentServiceListing (motebit/delegation@1.0 §7.1: listing_id, motebit_id, capabilities, pricing, sla,
 * description, updated_at), which relays and delegators read; the schema allows extra top-level fields, so the
 * identity file's service fields and the tools this caller may call ride beside it.
 */
export const serviceListingTool: SyntheticTool = {
  name: "motebit_service_listing",
  description:
    "Returns this service motebit's AgentServiceListing (capabilities, pricing, SLA, description), plus its service fields and the tools you may call with their risk levels.",
  inputSchema: { type: "object", properties: {} },
  risk: 0,
  audience: "both",
  oauthScope: "motebit:read",
  offered: serviceOnly,
  async run(_args, m, c) {
    const doc = m.identityDoc;
    const tools = c.view.callable();
    return okJson({
      // One listing per motebit, so its stable id is the motebit's own.
      listing_id: m.motebitId,
      motebit_id: m.motebitId,
      // Declared capabilities win; otherwise what is actually served is the capability list.
      capabilities: doc?.capabilities ?? tools.filter((t) => !t.name.startsWith("motebit_")).map((t) => t.name),
      // Nothing here is priced, and no availability is promised: the owner declares neither.
      pricing: [],
      sla: { max_latency_ms: m.taskTimeoutMs, availability_guarantee: 0 },
      description: doc?.service_description ?? "",
      updated_at: m.startedAt,
      did: m.did,
      public_key: m.publicKeyHex,
      service_name: doc?.service_name ?? null,
      service_description: doc?.service_description ?? null,
      service_url: doc?.service_url ?? null,
      terms_url: doc?.terms_url ?? null,
      tools,
    });
  },
};

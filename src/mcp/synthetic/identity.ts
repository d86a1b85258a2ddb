import type { SyntheticTool } from "./types.js";
import { always } from "./types.js";
import { ok, okJson } from "../tool-outcome.js";

export const identityTool: SyntheticTool = {
  name: "motebit_identity",
  description:
    "Returns this motebit's identity: the full signed identity file when one was loaded, else its motebit_id, public key and did:key.",
  inputSchema: { type: "object", properties: {} },
  risk: 0,
  audience: "both",
  oauthScope: "motebit:read",
  offered: always,
  async run(_args, m) {
    if (m.identityFileText !== null) return ok(m.identityFileText);
    return okJson({ motebit_id: m.motebitId, public_key: m.publicKeyHex, did: m.did, motebit_type: m.type });
  },
};

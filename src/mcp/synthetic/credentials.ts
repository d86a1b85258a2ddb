import type { SyntheticTool } from "./types.js";
import { serviceOnly } from "./types.js";
import { okJson } from "../tool-outcome.js";
import { base64urlEncode, canonicalJson, SUITE_RECEIPT, utf8 } from "../../protocol/index.js";

/**
 * A presentation of the credentials this motebit holds, signed with its key so a verifier can bind it to the
 * identity. Until a relay or peer issues one, the list is empty and the note says so.
 */
export const credentialsTool: SyntheticTool = {
  name: "motebit_credentials",
  description:
    "Returns a presentation of the credentials this service motebit holds, signed with its Ed25519 key (canonical JSON, suite motebit-jcs-ed25519-b64-v1).",
  inputSchema: { type: "object", properties: {} },
  risk: 0,
  offered: serviceOnly,
  async run(_args, m) {
    const body = {
      type: "MotebitCredentialPresentation",
      holder: m.did,
      motebit_id: m.motebitId,
      credentials: [] as unknown[],
      note: "No credentials have been issued to this motebit yet.",
      presented_at: m.clock.now(),
      public_key: m.publicKeyHex,
      suite: SUITE_RECEIPT,
    };
    const signature = base64urlEncode(await m.signer.sign(utf8(canonicalJson(body))));
    return okJson({ ...body, signature });
  },
};

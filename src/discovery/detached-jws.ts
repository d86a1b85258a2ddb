// A detached JWS (RFC 7515 §7.2 flattened form, payload left out per Appendix F) over a document's RFC 8785 form:
// how the A2A Agent Card's `signatures` entries are made, and how the MCP cards carry theirs. The signing input is
// ASCII `protected.payload`, never bare JSON, so it can never be mistaken for a receipt's signed bytes.
import { base64urlEncode } from "../protocol/base64url.js";
import { utf8 } from "../protocol/bytes.js";
import { canonicalJson } from "../protocol/canonical-json.js";
import type { Signer } from "../protocol/ed25519.js";

export interface DetachedJws {
  /** base64url of the protected header: {"alg":"EdDSA","kid":"<did:key>#<fingerprint>","typ":"JOSE"}. */
  protected: string;
  signature: string;
}

/** The did:key verification method of this key: did:key:z…#z…. */
export function keyIdOf(did: string): string {
  return `${did}#${did.slice("did:key:".length)}`;
}

export async function signDetached(payload: unknown, signer: Signer, did: string): Promise<DetachedJws> {
  const header = base64urlEncode(utf8(JSON.stringify({ alg: "EdDSA", kid: keyIdOf(did), typ: "JOSE" })));
  const body = base64urlEncode(utf8(canonicalJson(payload)));
  const signature = base64urlEncode(await signer.sign(utf8(`${header}.${body}`)));
  return { protected: header, signature };
}

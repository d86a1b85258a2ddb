// A detached JWS (RFC 7515 §7.2 flattened form, payload left out per Appendix F) over a document's RFC 8785 form:
// how the A2A Agent Card's `signatures` entries are made, and how the MCP cards carry theirs. The signing input is
// ASCII `protected.payload`, never bare JSON, so it can never be mistaken for a receipt's signed bytes.
import { base64urlDecodeUnpadded, base64urlEncode } from "../protocol/base64url.js";
import { fromUtf8, utf8 } from "../protocol/bytes.js";
import { canonicalJson } from "../protocol/canonical-json.js";
import { type Signer, verifySignature } from "../protocol/ed25519.js";

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

/** Whether `jws` is an EdDSA detached JWS over `payload`'s JCS form by `publicKeyHex`. Never throws. */
export async function verifyDetached(payload: unknown, jws: unknown, publicKeyHex: string): Promise<boolean> {
  try {
    const j = jws as DetachedJws;
    if (typeof j?.protected !== "string" || typeof j.signature !== "string") return false;
    const header = JSON.parse(fromUtf8(base64urlDecodeUnpadded(j.protected))) as { alg?: unknown };
    if (header.alg !== "EdDSA") return false;
    const input = utf8(`${j.protected}.${base64urlEncode(utf8(canonicalJson(payload)))}`);
    return await verifySignature(publicKeyHex, input, base64urlDecodeUnpadded(j.signature));
  } catch {
    return false;
  }
}

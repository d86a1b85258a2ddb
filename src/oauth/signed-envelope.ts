// A JSON payload signed by the motebit's key under a fixed context string: `base64url(json).base64url(sig)`,
// the signature over "<context>.<base64url(json)>". The context keeps an access token, an owner's approval and an
// owner's command apart from each other and from every other thing the key signs (tokens, receipts, identity
// files sign bytes that start with "{" or are canonical JSON, never one of these contexts).
import { base64urlDecode, base64urlEncode, fromUtf8, utf8, verifySignature, type Signer, type VerifySignature } from "../protocol/index.js";

export const ENVELOPE_MAX_CHARS = 8192;

export async function signEnvelope(context: string, payload: object, signer: Signer): Promise<string> {
  const body = base64urlEncode(utf8(JSON.stringify(payload)));
  const sig = await signer.sign(utf8(`${context}.${body}`));
  return `${body}.${base64urlEncode(sig)}`;
}

/** The payload when `envelope` is signed by `publicKeyHex` under `context`; null for anything else, never a throw. */
export async function openEnvelope(
  context: string,
  envelope: string,
  publicKeyHex: string,
  verify: VerifySignature = verifySignature,
): Promise<Record<string, unknown> | null> {
  if (typeof envelope !== "string" || envelope.length > ENVELOPE_MAX_CHARS) return null;
  const parts = envelope.trim().split(".");
  if (parts.length !== 2) return null;
  const [body, sigText] = parts;
  let payload: unknown;
  let sig: Uint8Array;
  try {
    sig = base64urlDecode(sigText);
    payload = JSON.parse(fromUtf8(base64urlDecode(body)));
  } catch {
    return null;
  }
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) return null;
  if (!(await verify(publicKeyHex, utf8(`${context}.${body}`), sig))) return null;
  return payload as Record<string, unknown>;
}

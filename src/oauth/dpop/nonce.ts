// Server-provided DPoP nonces (RFC 9449 §8, §9), kept without storage: a nonce is the time window it was issued in
// and an HMAC of that window under a key derived from the motebit's own (Ed25519 signatures are deterministic, RFC
// 8032, so every instance of the motebit derives the same key, and no secret is stored beside the seed). A nonce is
// good in its window and the next, so a proof made just before a window turns is not refused.
import { base64urlEncode, constantTimeEqual, utf8, type Signer } from "../../protocol/index.js";

export const NONCE_WINDOW_MS = 5 * 60_000;
const NONCE_KEY_CONTEXT = "motebit-dpop-nonce-key-v1";

export class DpopNonces {
  // Values only, never pending promises: a promise must not outlive the request that made it (workerd).
  private key: CryptoKey | undefined;
  private issued: { window: number; nonce: string } | undefined;

  constructor(private readonly signer: Signer) {}

  /** The nonce to hand out at `now` (the same one for a whole window). */
  async current(now: number): Promise<string> {
    const window = Math.floor(now / NONCE_WINDOW_MS);
    if (this.issued?.window !== window) this.issued = { window, nonce: await this.forWindow(window) };
    return this.issued.nonce;
  }

  /** Whether `nonce` was issued by this motebit in this window or the one before. */
  async accepts(nonce: string | null, now: number): Promise<boolean> {
    if (nonce === null) return false;
    const window = Math.floor(now / NONCE_WINDOW_MS);
    const issuedIn = Number(nonce.slice(0, nonce.indexOf(".")));
    if (issuedIn !== window && issuedIn !== window - 1) return false;
    return constantTimeEqual(nonce, issuedIn === window ? await this.current(now) : await this.forWindow(issuedIn));
  }

  private async forWindow(window: number): Promise<string> {
    const key = this.key ?? (this.key = await this.deriveKey());
    const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, utf8(String(window))));
    return `${window}.${base64urlEncode(mac)}`;
  }

  private async deriveKey(): Promise<CryptoKey> {
    const seed = await this.signer.sign(utf8(NONCE_KEY_CONTEXT));
    const material = await crypto.subtle.digest("SHA-256", new Uint8Array(seed));
    return crypto.subtle.importKey("raw", material, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  }
}

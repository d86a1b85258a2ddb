// The random strings the authorization server hands out: opaque tokens, and the short request code an owner types.
import { base64urlEncode } from "../../protocol/index.js";

/** Crockford-like, no look-alikes (0/O, 1/I/L, U): what the owner types into a terminal. */
const CODE_ALPHABET = "ABCDEFGHJKMNPQRSTVWXYZ23456789";

export function randomToken(bytes: number): string {
  return base64urlEncode(crypto.getRandomValues(new Uint8Array(bytes)));
}

/** A consent request's code: XXXX-XXXX. */
export function requestCode(): string {
  const picks = crypto.getRandomValues(new Uint8Array(8));
  const chars = [...picks].map((b) => CODE_ALPHABET[b % CODE_ALPHABET.length]).join("");
  return `${chars.slice(0, 4)}-${chars.slice(4)}`;
}

/** What the owner typed: any case, with or without the dash or spaces. */
export function normalizeCode(text: string): string {
  const s = text.toUpperCase().replace(/[\s-]/g, "");
  return s.length === 8 ? `${s.slice(0, 4)}-${s.slice(4)}` : s;
}

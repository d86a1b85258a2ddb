import { bytesToHex, utf8 } from "./bytes.js";

/** Lowercase hex SHA-256; a string is hashed as its UTF-8 bytes. */
export async function sha256Hex(data: string | Uint8Array): Promise<string> {
  const bytes = typeof data === "string" ? utf8(data) : (data as Uint8Array<ArrayBuffer>);
  return bytesToHex(new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)));
}

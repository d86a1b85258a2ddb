// The bodies OAuth endpoints read: text under the OAuth cap, and forms with each parameter once (RFC 6749 §3.1).
import { fromUtf8 } from "../../protocol/index.js";
import { readBodyCapped } from "../../server/body.js";
import { OAUTH_MAX_BODY_BYTES } from "./body-cap.js";

export type Form = Map<string, string>;

/** The body as UTF-8 text, at most OAUTH_MAX_BODY_BYTES; null when it is larger or not UTF-8. */
async function readText(request: Request): Promise<string | null> {
  const read = await readBodyCapped(request.body, OAUTH_MAX_BODY_BYTES);
  if (!read.ok) return null;
  try {
    return fromUtf8(read.bytes);
  } catch {
    return null;
  }
}

/** The body as JSON, or null (too large, not UTF-8, not JSON). */
export async function readJson(request: Request): Promise<unknown> {
  const text = await readText(request);
  try {
    return text === null ? null : JSON.parse(text);
  } catch {
    return null;
  }
}

/** A form body with each parameter at most once, or null. */
export async function readForm(request: Request): Promise<Form | null> {
  const type = (request.headers.get("Content-Type") ?? "").split(";")[0].trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") return null;
  const text = await readText(request);
  if (text === null) return null;
  const form: Form = new Map();
  for (const [k, v] of new URLSearchParams(text)) {
    if (form.has(k)) return null;
    form.set(k, v);
  }
  return form;
}

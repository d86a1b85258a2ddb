// The consent form's CSRF cookie: bound to the browser that opened the page, and to one request.
import type { ConsentRequest } from "../store.js";
import type { OAuthUrls } from "../urls.js";
import { REQUEST_TTL_MS } from "./lifetimes.js";

export function csrfCookieName(code: string): string {
  return `motebit_oauth_${code.replace("-", "")}`;
}

/** Bound to this browser: SameSite=Strict, so a form posted from another site arrives without it. */
export function csrfCookie(r: ConsentRequest, urls: OAuthUrls): string {
  const u = new URL(urls.authorize);
  const secure = u.protocol === "https:" ? "; Secure" : "";
  return `${csrfCookieName(r.code)}=${r.csrf}; Path=${u.pathname}; Max-Age=${REQUEST_TTL_MS / 1000}; HttpOnly; SameSite=Strict${secure}`;
}

export function readCookie(header: string | null, name: string): string | null {
  if (header === null) return null;
  for (const part of header.split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === name) return v.join("=");
  }
  return null;
}

// Reading a motebit's public transparency log over HTTP (docs/protocol.md §10): GET <base>/log/head, /log/inclusion,
// /log/consistency. <base> is the motebit's URL: its host's root, or /m/<name> in a fleet (a trailing /mcp is dropped).
import { CliError } from "./cli-error.js";
import { fetchPublicJson } from "./public-json.js";

/** The log's base URL for a motebit URL the user gave. */
export function logBase(url: string): URL {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    throw new CliError(`not a URL: ${url}`);
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") throw new CliError(`not an http(s) URL: ${url}`);
  u.search = "";
  u.hash = "";
  u.pathname = u.pathname.replace(/\/+$/, "").replace(/\/mcp$/, "");
  return u;
}

/** The log answered 404: for an inclusion question, it holds no such leaf. */
export class LogNotFound extends CliError {}

/** GET <base>/log/<what>; anything but a JSON 200 is a CliError (LogNotFound for a 404) naming the URL and what the server said. */
export async function fetchLog(base: URL, what: string, fetchFn: typeof fetch = fetch): Promise<Record<string, unknown>> {
  const url = `${base.href.replace(/\/$/, "")}/log/${what}`;
  const { status, body } = await fetchPublicJson(url, fetchFn);
  if (body === undefined) throw new CliError(`${url} answered HTTP ${status} without JSON`);
  const o = body !== null && typeof body === "object" && !Array.isArray(body) ? (body as Record<string, unknown>) : null;
  if (status !== 200 || o === null) {
    const said = o !== null && typeof o.error === "string" ? `: ${o.error}` : "";
    throw new (status === 404 ? LogNotFound : CliError)(`${url} answered HTTP ${status}${said}`);
  }
  return o;
}

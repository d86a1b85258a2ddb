// What "oauth approve" and "fleet approve" show the owner about the request they sign, and the checks that it is
// the request the owner meant: the code typed, for the motebit at the URL given. The strings in it were chosen by
// whoever registered the client, so each is shown through the consent page's own helpers (src/oauth/display.ts):
// a carriage return or an escape sequence in a redirect URI is printed as \u{d}, \u{1b}, never run by the terminal.
import { normalizeCode, parseScope, redirectTarget, type RequestDetails, scopesShown, visible } from "motebit-edge/core";
import { CliError } from "../cli-error.js";

const FIELDS = ["motebit_id", "request", "client_id", "client_name", "redirect_uri", "code_challenge", "resource"] as const;

/** `d` as the server answered it, refused unless it is the request `code` of the motebit whose MCP endpoint is `resource`. */
export function checkFetchedRequest(d: unknown, code: string, resource: string): RequestDetails {
  const r = d as Partial<Record<string, unknown>> | null;
  if (typeof r !== "object" || r === null || FIELDS.some((k) => typeof r[k] !== "string") || typeof r.expires_at !== "number") {
    throw new CliError("the server's answer is not a pending request; nothing was signed");
  }
  // A server from before scopes names none, and grants all four.
  const details = { ...r, scope: r.scope ?? parseScope(undefined) } as RequestDetails;
  if (details.request !== normalizeCode(code)) {
    throw new CliError(`the server answered request ${visible(details.request)}, not ${visible(normalizeCode(code))} as typed; nothing was signed`);
  }
  // Every scope it grants is one the owner is shown: an unknown or unordered one is not this release's request.
  if (typeof details.scope !== "string" || parseScope(details.scope) !== details.scope) throw new CliError(`the request asks for scopes this release does not know (${visible(details.scope)}); nothing was signed`);
  // As the server writes it: the URL parser's host (lowercase, punycode, no default port).
  if (details.resource !== new URL(resource).href) {
    throw new CliError(`the request is for ${visible(details.resource)}, not ${resource} as given with --url; nothing was signed (check the URL the consent page names)`);
  }
  return details;
}

/** The lines the owner reads before pasting the approval (stderr). */
export function describeRequest(d: RequestDetails, trust: string): string {
  return (
    `Approving "${visible(d.client_name)}" (${visible(d.client_id)})\n` +
    `  sends the code to ${redirectTarget(d.redirect_uri)}: ${visible(d.redirect_uri)}\n` +
    `  for ${visible(d.resource)}\n` +
    `  as the peer oauth:${visible(d.client_id)} with trust ${trust}\n` +
    `  with the scopes\n${scopesShown(d.scope).map((s) => `    ${s.scope}: ${s.meaning}\n`).join("")}` +
    `  until ${new Date(d.expires_at).toISOString()}\n`
  );
}

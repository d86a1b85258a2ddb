// OAuth at the edge, step by step against the real Worker (SELF): register, consent, the approval, the code.
import { SELF } from "cloudflare:test";
import { vi } from "vitest";
import type { RequestDetails } from "../../../src/oauth/approval.js";
import { base64urlEncode, utf8 } from "../../../src/protocol/index.js";
import { openConsent, redirectParams, REDIRECT_URI, submitConsent, type FetchFn } from "../../shared/oauth-driver.js";

const fetchFn: FetchFn = (url, init) => SELF.fetch(url, init);
const form = (fields: Record<string, string>) => ({ method: "POST", headers: { "Content-Type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(fields) });

/** Register, consent, the owner's approval (as motebit-local oauth approve signs it), and the code. */
export async function approvedCode(base: string, sign: (d: RequestDetails) => Promise<string>, extra: Record<string, string> = {}) {
  const reg = (await (await fetchFn(`${base}/register`, { method: "POST", body: JSON.stringify({ client_name: "Edge test", redirect_uris: [REDIRECT_URI] }) })).json()) as { client_id: string };
  const verifier = crypto.randomUUID() + crypto.randomUUID();
  const challenge = base64urlEncode(new Uint8Array(await crypto.subtle.digest("SHA-256", utf8(verifier))));
  const q = new URLSearchParams({ response_type: "code", client_id: reg.client_id, redirect_uri: REDIRECT_URI, code_challenge: challenge, code_challenge_method: "S256", resource: `${base}/mcp`, ...extra });
  const page = await openConsent(fetchFn, `${base}/authorize?${q}`);
  const details = (await (await fetchFn(`${base}/oauth/requests/${page.code}`)).json()) as RequestDetails;
  const back = redirectParams(await submitConsent(fetchFn, page, "approve", await sign(details), { origin: null }));
  const redeem = (resource = `${base}/mcp`) =>
    fetchFn(`${base}/token`, form({ grant_type: "authorization_code", code: back.get("code")!, code_verifier: verifier, redirect_uri: REDIRECT_URI, client_id: reg.client_id, resource }));
  return { clientId: reg.client_id, redeem, page };
}


/**
 * A stand-in for the web while a test runs: the motebit's object fetches Client ID Metadata Documents under
 * https://agent.example/ from `documents` (with `cacheControl`); any other fetch goes out as usual. Undo with
 * vi.restoreAllMocks().
 */
export function serveMetadataDocuments(documents: Map<string, unknown>, cacheControl = "max-age=600"): void {
  const real = globalThis.fetch;
  vi.spyOn(globalThis, "fetch").mockImplementation(async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (!url.startsWith("https://agent.example/")) return real(input, init);
    return documents.has(url) ? Response.json(documents.get(url), { headers: { "Cache-Control": cacheControl } }) : new Response("not found", { status: 404 });
  });
}

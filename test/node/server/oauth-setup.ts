// The Node host's app with one registered OAuth client, and the steps of the flow as functions: the authorize URL,
// the owner's approval, an approved code, its redemption. Shared by the OAuth tests of test/node/server.
import { signApproval, type RequestDetails } from "../../../src/oauth/approval.js";
import { base64urlEncode, createSigner, utf8 } from "../../../src/protocol/index.js";
import keys from "../../fixtures/edge/keys.json";
import { nodeApp } from "../helpers/node-app.js";
import { openConsent, redirectParams, REDIRECT_URI, submitConsent, type FetchFn } from "../../shared/oauth-driver.js";

export const BASE = "https://motebit.test";
export const RESOURCE = `${BASE}/mcp`;
/** A JSON body read by field. */
export const json = async (r: Response | Promise<Response>): Promise<any> => (await r).json();
export const form = (fields: Record<string, string>) => ({
  method: "POST",
  headers: { "Content-Type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(fields),
});

async function challengeOf(verifier: string): Promise<string> {
  return base64urlEncode(new Uint8Array(await crypto.subtle.digest("SHA-256", utf8(verifier))));
}

export async function setup(o: Parameters<typeof nodeApp>[1] = {}) {
  const h = await nodeApp({}, o);
  const fetchFn: FetchFn = async (url, init) => h.app.fetch(new Request(url, init));
  const reg = (await json((await fetchFn(`${BASE}/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ client_name: "Hostile test", redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: "none" }),
  })))) as { client_id: string };
  const verifier = "v".repeat(43) + crypto.randomUUID();
  const challenge = await challengeOf(verifier);
  const authorizeUrl = (p: Record<string, string> = {}) => {
    const u = new URL(`${BASE}/authorize`);
    const q = { response_type: "code", client_id: reg.client_id, redirect_uri: REDIRECT_URI, code_challenge: challenge, code_challenge_method: "S256", state: "s1", resource: RESOURCE, ...p };
    for (const [k, v] of Object.entries(q)) u.searchParams.set(k, v);
    return u;
  };
  const signer = await createSigner(keys.server.seed_hex);
  const details = async (code: string) => (await json((await fetchFn(`${BASE}/oauth/requests/${code}`)))) as RequestDetails;
  const approve = async (code: string, key = signer) => signApproval(await details(code), "verified", key);
  /** A code approved by the owner, ready to redeem. */
  const approvedCode = async () => {
    const page = await openConsent(fetchFn, authorizeUrl());
    return redirectParams(await submitConsent(fetchFn, page, "approve", await approve(page.code))).get("code")!;
  };
  const redeem = (code: string, p: Record<string, string> = {}) =>
    fetchFn(`${BASE}/token`, form({ grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: REDIRECT_URI, client_id: reg.client_id, resource: RESOURCE, ...p }));
  const refresh = (token: string) => fetchFn(`${BASE}/token`, form({ grant_type: "refresh_token", refresh_token: token, client_id: reg.client_id, resource: RESOURCE }));
  /** An MCP initialize with this bearer: 200 when the token (and its grant) stands here. */
  const call = (token: string, url = RESOURCE) =>
    fetchFn(url, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "x", version: "1" } } }),
    });
  return { ...h, fetchFn, clientId: reg.client_id, authorizeUrl, approve, approvedCode, redeem, refresh, call, details, signer };
}


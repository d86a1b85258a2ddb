// Access tokens for the bench's OAuth sides, each obtained once, in setup, through its server's real flow (so the
// figures measure a real token's check, never a hand-made one):
//   ours:  the MCP SDK client's own auth() — discovery, registration, authorize — the consent page opened and
//          posted as a browser does, with the owner's signed approval (as `motebit-local oauth approve` signs it),
//          then the code redeemed by auth() again
//   ours, DPoP-bound: the same, the code redeemed with a DPoP proof (and again with the nonce the server asks for)
//   theirs: workers-oauth-provider's registration, /authorize (the bench Worker's consent approves at once, the
//          provider issues the code) and token endpoint, with PKCE, as a public client
import { auth } from "@modelcontextprotocol/sdk/client/auth.js";
import { signApproval, type RequestDetails } from "../../src/oauth/approval.js";
import { base64urlEncode, createSigner, utf8 } from "../../src/protocol/index.js";
import { makeProof, proofKey, type ProofKey } from "../../test/shared/dpop-proof.js";
import { MemoryProvider, openConsent, redirectParams, REDIRECT_URI, submitConsent, type FetchFn } from "../../test/shared/oauth-driver.js";

/** The edge's access token for a client the owner (key `ownerSeedHex`) approved as verified. */
export async function edgeAccessToken(base: string, ownerSeedHex: string, fetchFn: FetchFn = fetch): Promise<string> {
  const serverUrl = `${base}/mcp`;
  const provider = new MemoryProvider();
  if ((await auth(provider, { serverUrl, fetchFn })) !== "REDIRECT") throw new Error("edge OAuth: expected a redirect to consent");
  const page = await openConsent(fetch, provider.authorizationUrl!);
  const details = (await (await fetch(`${base}/oauth/requests/${page.code}`)).json()) as RequestDetails;
  const approval = await signApproval(details, "verified", await createSigner(ownerSeedHex));
  const code = redirectParams(await submitConsent(fetch, page, "approve", approval)).get("code")!;
  if ((await auth(provider, { serverUrl, authorizationCode: code, fetchFn })) !== "AUTHORIZED") throw new Error("edge OAuth: the code was not redeemed");
  return provider.saved!.access_token;
}

/** A DPoP-bound access token: the key it is bound to, and the server nonce (good 5–10 min) its proofs carry. */
export interface DpopGrant {
  token: string;
  key: ProofKey;
  nonce: string;
}

/**
 * The edge's access token bound to a fresh Ed25519 DPoP key: the SDK's token request (the only form post with a
 * grant_type) carries a proof, and is sent once more with the nonce when the server answers use_dpop_nonce with one
 * (RFC 9449 §8); the same nonce is what /mcp asks for.
 */
export async function edgeDpopAccessToken(base: string, ownerSeedHex: string): Promise<DpopGrant> {
  const key = await proofKey();
  let nonce: string | undefined;
  const withProof: FetchFn = async (url, init) => {
    if (!(init?.body instanceof URLSearchParams && init.body.has("grant_type"))) return fetch(url, init);
    const send = async () => {
      const headers = new Headers(init.headers);
      headers.set("DPoP", await makeProof(key, "POST", String(url), { nonce }));
      return fetch(url, { ...init, headers });
    };
    const first = await send();
    const asked = first.headers.get("DPoP-Nonce");
    if (first.status !== 400 || asked === null) return first;
    nonce = asked;
    return send();
  };
  const token = await edgeAccessToken(base, ownerSeedHex, withProof);
  if (nonce === undefined) throw new Error("edge DPoP: the token endpoint asked for no nonce");
  return { token, key, nonce };
}

const form = (fields: Record<string, string>): RequestInit => ({
  method: "POST",
  headers: { "Content-Type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(fields),
});

/** workers-oauth-provider's access token for resource `${prefix}/mcp` on `base`. */
export async function providerAccessToken(base: string, prefix: string): Promise<string> {
  const resource = `${base}${prefix}/mcp`;
  const registered = await fetch(`${base}${prefix}/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ client_name: "bench", redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: "none" }),
  });
  if (!registered.ok) throw new Error(`provider /register: HTTP ${registered.status} ${await registered.text()}`);
  const { client_id } = (await registered.json()) as { client_id: string };
  const verifier = crypto.randomUUID() + crypto.randomUUID();
  const challenge = base64urlEncode(new Uint8Array(await crypto.subtle.digest("SHA-256", utf8(verifier))));
  const q = new URLSearchParams({ response_type: "code", client_id, redirect_uri: REDIRECT_URI, code_challenge: challenge, code_challenge_method: "S256", resource, state: "bench" });
  const authorized = await fetch(`${base}${prefix}/authorize?${q}`, { redirect: "manual" });
  const location = authorized.headers.get("Location");
  if (authorized.status !== 302 || location === null) throw new Error(`provider /authorize: HTTP ${authorized.status} ${await authorized.text()}`);
  const code = new URL(location).searchParams.get("code")!;
  const token = await fetch(`${base}${prefix}/token`, form({ grant_type: "authorization_code", code, code_verifier: verifier, redirect_uri: REDIRECT_URI, client_id, resource }));
  if (!token.ok) throw new Error(`provider /token: HTTP ${token.status} ${await token.text()}`);
  return ((await token.json()) as { access_token: string }).access_token;
}

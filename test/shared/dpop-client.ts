// An independent OAuth client (oauth4webapi) through a motebit's whole DPoP sign-in, on any host: discovery, dynamic
// registration, consent with the owner's approval, the code redeemed with a DPoP proof, MCP requests and refresh
// with proofs; each step retried once on a use_dpop_nonce, as RFC 9449 §8/§9 clients do.
import * as oauth from "oauth4webapi";
import type { RequestDetails } from "../../src/oauth/approval.js";
import { openConsent, REDIRECT_URI, submitConsent, type FetchFn } from "./oauth-driver.js";

const INITIALIZE = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "oauth4webapi", version: "3" } } };

/** `step` again once if the server asked for a nonce: the DPoP handle has kept the nonce from the refusal. */
export async function withNonceRetry<T>(step: () => Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (err) {
    if (!oauth.isDPoPNonceError(err)) throw err;
    return step();
  }
}

export interface DpopSession {
  as: oauth.AuthorizationServer;
  client: oauth.Client;
  keyPair: CryptoKeyPair;
  dpop: oauth.DPoPHandle;
  tokens: oauth.TokenEndpointResponse;
  options: { [oauth.customFetch]: (url: string, init: any) => Promise<Response>; [oauth.allowInsecureRequests]: true };
  resource: string;
  fetchFn: FetchFn;
}

/** Signs in at `base` with a DPoP key of `alg`; `sign` is the owner's approval of the request shown on the consent page. */
export async function dpopSignIn(base: string, fetchFn: FetchFn, sign: (d: RequestDetails) => Promise<string>, alg: "EdDSA" | "ES256" = "EdDSA"): Promise<DpopSession> {
  // Loopback and test hosts are plain http; every request goes through the host's fetch (SELF at the edge).
  const options = { [oauth.customFetch]: (url: string, init: any) => fetchFn(url, init), [oauth.allowInsecureRequests]: true } as const;
  const issuer = new URL(base);
  const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, { ...options, algorithm: "oauth2" }));
  const client = (await oauth.processDynamicClientRegistrationResponse(
    await oauth.dynamicClientRegistrationRequest(as, { client_name: "oauth4webapi", redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: "none" }, options),
  )) as oauth.Client;
  const resource = `${base}/mcp`;
  const verifier = oauth.generateRandomCodeVerifier();
  const state = oauth.generateRandomState();
  const u = new URL(as.authorization_endpoint!);
  const q = { response_type: "code", client_id: client.client_id, redirect_uri: REDIRECT_URI, code_challenge: await oauth.calculatePKCECodeChallenge(verifier), code_challenge_method: "S256", state, resource };
  for (const [k, v] of Object.entries(q)) u.searchParams.set(k, v);
  const page = await openConsent(fetchFn, u);
  const details = (await (await fetchFn(`${base}/oauth/requests/${page.code}`)).json()) as RequestDetails;
  const back = await submitConsent(fetchFn, page, "approve", await sign(details), { origin: null });
  const params = oauth.validateAuthResponse(as, client, new URL(back.headers.get("Location")!), state);
  const keyPair = await oauth.generateKeyPair(alg);
  const dpop = oauth.DPoP(client, keyPair);
  const tokens = await withNonceRetry(async () =>
    oauth.processAuthorizationCodeResponse(
      as,
      client,
      await oauth.authorizationCodeGrantRequest(as, client, oauth.None(), params, REDIRECT_URI, verifier, { ...options, DPoP: dpop, additionalParameters: { resource } }),
    ),
  );
  return { as, client, keyPair, dpop, tokens, options, resource, fetchFn };
}

/** An MCP initialize with the session's access token and a fresh proof (retried once for a nonce); the answer. */
export function dpopInitialize(s: DpopSession, accessToken = s.tokens.access_token, dpop: oauth.DPoPHandle = s.dpop): Promise<Response> {
  return withNonceRetry(() =>
    oauth.protectedResourceRequest(accessToken, "POST", new URL(s.resource), new Headers({ "Content-Type": "application/json", Accept: "application/json" }), JSON.stringify(INITIALIZE), {
      ...s.options,
      DPoP: dpop,
    }),
  );
}

/** A refresh with a proof by `dpop`'s key (the session's own unless given). */
export function dpopRefresh(s: DpopSession, dpop: oauth.DPoPHandle = s.dpop): Promise<oauth.TokenEndpointResponse> {
  return withNonceRetry(async () =>
    oauth.processRefreshTokenResponse(
      s.as,
      s.client,
      await oauth.refreshTokenGrantRequest(s.as, s.client, oauth.None(), s.tokens.refresh_token!, { ...s.options, DPoP: dpop, additionalParameters: { resource: s.resource } }),
    ),
  );
}

/** The initialize body, for requests a test builds by hand. */
export const INITIALIZE_BODY = JSON.stringify(INITIALIZE);

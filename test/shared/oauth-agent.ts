// A keyed agent as an independent OAuth client sees a motebit: its key pair, the Client ID Metadata Document that
// publishes the public half, and oauth4webapi (not our code) for discovery, client_credentials with
// private_key_jwt, and RFC 7009 revocation. Shared by the Node and workerd tests.
import * as oauth from "oauth4webapi";
import type { FetchFn } from "./oauth-driver.js";

export type KeyAlg = "Ed25519" | "ES256";

export interface KeyedAgent {
  clientId: string;
  /** The metadata document the agent serves at clientId. */
  document: Record<string, unknown>;
  auth: oauth.ClientAuth;
}

export async function keyedAgent(clientId: string, alg: KeyAlg = "Ed25519"): Promise<KeyedAgent> {
  const params = alg === "Ed25519" ? { name: "Ed25519" } : { name: "ECDSA", namedCurve: "P-256" };
  const pair = (await crypto.subtle.generateKey(params, true, ["sign", "verify"])) as CryptoKeyPair;
  const { kty, crv, x, y } = await crypto.subtle.exportKey("jwk", pair.publicKey);
  const kid = `${alg}-1`;
  const document = {
    client_id: clientId, client_name: `Agent (${alg})`, token_endpoint_auth_method: "private_key_jwt", grant_types: ["client_credentials"],
    jwks: { keys: [{ kty, crv, x, ...(y === undefined ? {} : { y }), kid, use: "sig" }] },
  };
  return { clientId, document, auth: oauth.PrivateKeyJwt({ key: pair.privateKey, kid }) };
}

/** oauth4webapi's options for a server reached through `fetchFn` (plain http allowed only for http issuers). */
export function options(fetchFn: FetchFn, issuer: string) {
  return { [oauth.customFetch]: fetchFn as never, [oauth.allowInsecureRequests]: issuer.startsWith("http:") };
}

/** The motebit's RFC 8414 metadata, as oauth4webapi discovers and checks it. */
export async function discover(fetchFn: FetchFn, issuer: string): Promise<oauth.AuthorizationServer> {
  const url = new URL(issuer);
  return oauth.processDiscoveryResponse(url, await oauth.discoveryRequest(url, { ...options(fetchFn, issuer), algorithm: "oauth2" }));
}

/** client_credentials with private_key_jwt for `resource`: the token response, or oauth4webapi's error thrown. */
export async function clientCredentials(fetchFn: FetchFn, as: oauth.AuthorizationServer, agent: KeyedAgent, resource: string) {
  const client = { client_id: agent.clientId };
  const res = await oauth.clientCredentialsGrantRequest(as, client, agent.auth, new URLSearchParams({ resource }), options(fetchFn, as.issuer));
  return oauth.processClientCredentialsResponse(as, client, res);
}

/** RFC 7009 revocation of `token`, by a public client (`auth` None) or a keyed one; throws on a refusal. */
export async function revokeToken(fetchFn: FetchFn, as: oauth.AuthorizationServer, clientId: string, token: string, auth: oauth.ClientAuth = oauth.None()) {
  await oauth.processRevocationResponse(await oauth.revocationRequest(as, { client_id: clientId }, auth, token, options(fetchFn, as.issuer)));
}

// DPoP proofs made by hand (RFC 9449 §4.2), so a test can make each one wrong in exactly one way.
import { base64urlEncode, utf8 } from "../../src/protocol/index.js";
import { accessTokenHash } from "../../src/oauth/dpop/proof.js";

export interface ProofKey {
  alg: "EdDSA" | "ES256";
  privateKey: CryptoKey;
  jwk: JsonWebKey;
}

export async function proofKey(alg: "EdDSA" | "ES256" = "EdDSA"): Promise<ProofKey> {
  const params = alg === "ES256" ? { name: "ECDSA", namedCurve: "P-256" } : { name: "Ed25519" };
  const pair = (await crypto.subtle.generateKey(params, true, ["sign", "verify"])) as CryptoKeyPair;
  const { kty, crv, x, y } = await crypto.subtle.exportKey("jwk", pair.publicKey);
  return { alg, privateKey: pair.privateKey, jwk: y === undefined ? { kty, crv, x } : { kty, crv, x, y } };
}

const b64json = (v: unknown) => base64urlEncode(utf8(JSON.stringify(v)));

/**
 * A proof of `htm` `htu` by `key`, now, with a fresh jti; `token` adds its ath. `header` and `claims` override or
 * (as undefined) remove members.
 */
export async function makeProof(
  key: ProofKey,
  htm: string,
  htu: string,
  o: { token?: string; nonce?: string; header?: Record<string, unknown>; claims?: Record<string, unknown> } = {},
): Promise<string> {
  const header = { typ: "dpop+jwt", alg: key.alg, jwk: key.jwk, ...o.header };
  const claims = {
    jti: crypto.randomUUID(),
    htm,
    htu,
    iat: Math.floor(Date.now() / 1000),
    ...(o.token !== undefined && { ath: await accessTokenHash(o.token) }),
    ...(o.nonce !== undefined && { nonce: o.nonce }),
    ...o.claims,
  };
  const input = `${b64json(header)}.${b64json(claims)}`;
  const params = key.alg === "ES256" ? { name: "ECDSA", hash: "SHA-256" } : { name: "Ed25519" };
  return `${input}.${base64urlEncode(new Uint8Array(await crypto.subtle.sign(params, key.privateKey, utf8(input))))}`;
}

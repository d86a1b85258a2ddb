// What a DPoP refusal says (RFC 9449 §7.1, §12.2): the WWW-Authenticate challenge beside Bearer's, its error codes,
// and a one-sentence hint per reason, as every refusal of this server carries.
import { DPOP_ALGS } from "./algorithms.js";
import type { DpopProofReason } from "./proof.js";

export type DpopError = "invalid_token" | "invalid_dpop_proof" | "use_dpop_nonce";

/** Why a request to /mcp with an OAuth token was refused on DPoP's account. */
export type DpopRefusalReason = DpopProofReason | "dpop_bound" | "not_dpop_bound" | "nonce";

/** The DPoP challenge (every 401 of the resource advertises it beside Bearer's): with an error, or only the algs. */
export function dpopChallenge(error?: DpopError, description?: string): string {
  const algs = `algs="${DPOP_ALGS.join(" ")}"`;
  if (error === undefined) return `DPoP ${algs}`;
  // A quoted-string (RFC 9110 §5.6.4): quotes and backslashes inside it escaped.
  return `DPoP error="${error}", error_description="${(description ?? error).replace(/["\\]/g, "\\$&")}", ${algs}`;
}

const HINTS: Record<DpopRefusalReason, string> = {
  proof_missing: "send one DPoP header: a proof JWT signed by the key the token is bound to",
  proof_malformed: "the DPoP header must be one compact JWT (header, claims, signature; base64url without padding) with jti, htm, htu and iat",
  typ: 'the proof\'s header must say typ "dpop+jwt"',
  alg: `sign the proof with one of: ${DPOP_ALGS.join(", ")}`,
  jwk: "the proof's header must carry the public key (jwk) of its alg: Ed25519 (OKP) or P-256 (EC), with no private member",
  signature: "the proof's signature does not verify with the jwk it carries",
  htm: "the proof's htm must be this request's method",
  htu: "the proof's htu must be the URL the request was sent to, as the server names it (its issuer's base), without query or fragment",
  iat: "the proof's iat must be within a minute of the server's clock: make a new proof for each request",
  ath: "the proof's ath must be base64url(SHA-256(access token))",
  key_mismatch: "the token is bound to another key (cnf.jkt): sign the proof with the key the token was issued to",
  replayed: "each proof is good for one request: make a new proof (a new jti) for each request",
  dpop_bound: 'this token is DPoP-bound: send it as "Authorization: DPoP <token>" with a DPoP proof',
  not_dpop_bound: 'this token is not DPoP-bound: send it as "Authorization: Bearer <token>"',
  nonce: "put the nonce from the DPoP-Nonce header of this answer in a new proof, and retry",
};

export function dpopHint(reason: DpopRefusalReason): string {
  return HINTS[reason];
}

/** The RFC error code of a refusal: the token's own binding is invalid_token, anything about the proof invalid_dpop_proof. */
export function dpopErrorOf(reason: DpopRefusalReason): DpopError {
  if (reason === "nonce") return "use_dpop_nonce";
  return reason === "dpop_bound" || reason === "not_dpop_bound" || reason === "key_mismatch" ? "invalid_token" : "invalid_dpop_proof";
}

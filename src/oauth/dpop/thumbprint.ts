// RFC 7638 JWK thumbprint: SHA-256 over the key's required members in lexicographic order, no whitespace. It names
// the key a DPoP-bound token is bound to (cnf.jkt, RFC 9449 §6.1).
import { base64urlEncode, utf8 } from "../../protocol/index.js";
import type { PublicJwk } from "./algorithms.js";

export async function jwkThumbprint(jwk: PublicJwk): Promise<string> {
  const members = jwk.kty === "EC" ? { crv: jwk.crv, kty: jwk.kty, x: jwk.x, y: jwk.y } : { crv: jwk.crv, kty: jwk.kty, x: jwk.x };
  return base64urlEncode(new Uint8Array(await crypto.subtle.digest("SHA-256", utf8(JSON.stringify(members)))));
}

// The discovery documents' signatures as an outside verifier checks them: jose's detached-JWS check over
// canonicalize's RFC 8785 form (neither is our code), under the motebit's Ed25519 key.
import canonicalize from "canonicalize";
import { flattenedVerify, importJWK } from "jose";
import { base64urlEncode } from "../../src/protocol/base64url.js";
import { hexToBytes } from "../../src/protocol/bytes.js";

export type Json = Record<string, any>;

/** Verifies `jws` (detached) over `doc`'s JCS form under `publicKeyHex`; rejects when it does not verify. */
export async function joseVerify(doc: unknown, jws: { protected: string; signature: string }, publicKeyHex: string) {
  const key = await importJWK({ kty: "OKP", crv: "Ed25519", x: base64urlEncode(hexToBytes(publicKeyHex)) }, "EdDSA");
  const payload = base64urlEncode(new TextEncoder().encode(canonicalize(doc)!));
  return flattenedVerify({ protected: jws.protected, signature: jws.signature, payload }, key, { algorithms: ["EdDSA"] });
}

/** Each document without its signature, and the signature: where each of the three keeps it. */
export function unsign(kind: "agentCard" | "serverCard" | "serverJson", doc: Json): { unsigned: Json; jws: { protected: string; signature: string } } {
  if (kind === "agentCard") {
    const { signatures, ...unsigned } = doc;
    return { unsigned, jws: signatures[0] };
  }
  if (kind === "serverCard") {
    const { "dev.motebit/signature": jws, ...meta } = doc._meta;
    return { unsigned: { ...doc, _meta: meta }, jws };
  }
  const REG = "io.modelcontextprotocol.registry/publisher-provided";
  const { "dev.motebit/signature": jws, ...rest } = doc._meta[REG];
  return { unsigned: { ...doc, _meta: { [REG]: rest } }, jws };
}

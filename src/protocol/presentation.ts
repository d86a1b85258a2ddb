// W3C Verifiable Presentation with an eddsa-jcs-2022 Data Integrity proof: the motebit_credentials answer
// (motebit/credential@1.0 §2.2, §5), so the reference's verifiers read it as they read their own.
import { base58btcDecode, base58btcEncode } from "./base58.js";
import { utf8 } from "./bytes.js";
import { canonicalJson } from "./canonical-json.js";
import { didKeyToPublicKey, publicKeyToDidKey } from "./did-key.js";
import { verifySignature, type Signer } from "./ed25519.js";

export const CREDENTIALS_CONTEXT = "https://www.w3.org/ns/credentials/v2";

export interface DataIntegrityProof {
  type: "DataIntegrityProof";
  cryptosuite: "eddsa-jcs-2022";
  created: string;
  verificationMethod: string;
  proofPurpose: "authentication" | "assertionMethod";
  proofValue: string;
}

export interface VerifiablePresentation {
  "@context": string[];
  type: string[];
  holder: string;
  verifiableCredential: unknown[];
  proof: DataIntegrityProof;
}

const sha256 = async (s: string): Promise<Uint8Array> =>
  new Uint8Array(await crypto.subtle.digest("SHA-256", utf8(s) as Uint8Array<ArrayBuffer>));

/** The bytes eddsa-jcs-2022 signs: SHA-256(JCS(proof options)) ‖ SHA-256(JCS(document without proof)). */
export async function dataIntegrityMessage(document: Record<string, unknown>, proof: Omit<DataIntegrityProof, "proofValue">): Promise<Uint8Array> {
  const { proof: _ignored, ...doc } = document;
  const out = new Uint8Array(64);
  out.set(await sha256(canonicalJson(proof)));
  out.set(await sha256(canonicalJson(doc)), 32);
  return out;
}

/** The holder (this motebit) presents `credentials`, each keeping its issuer's proof; the holder's proof is "authentication". */
export async function signPresentation(credentials: unknown[], signer: Signer, createdMs: number): Promise<VerifiablePresentation> {
  const holder = publicKeyToDidKey(signer.publicKeyHex);
  const doc = { "@context": [CREDENTIALS_CONTEXT], type: ["VerifiablePresentation"], holder, verifiableCredential: credentials };
  const options = {
    type: "DataIntegrityProof" as const,
    cryptosuite: "eddsa-jcs-2022" as const,
    created: new Date(createdMs).toISOString(),
    verificationMethod: `${holder}#${holder.slice("did:key:".length)}`,
    proofPurpose: "authentication" as const,
  };
  const signature = await signer.sign(await dataIntegrityMessage(doc, options));
  return { ...doc, proof: { ...options, proofValue: "z" + base58btcEncode(signature) } };
}

/** The W3C contexts a credential may open with (v2, and v1 as older issuers write it). */
const CREDENTIAL_CONTEXTS = [CREDENTIALS_CONTEXT, "https://www.w3.org/2018/credentials/v1"];

export type CredentialCheck = { ok: true; credential: Record<string, unknown>; issuer: string } | { ok: false; error: string };

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * Whether `vc` is a credential this motebit may hold and present: a W3C VerifiableCredential about `subject` (our
 * did:key), issued by a did:key whose eddsa-jcs-2022 assertion proof verifies, and not expired at `now`. Anything
 * it cannot verify offline is refused, never held on trust.
 */
export async function checkCredential(vc: unknown, o: { subject: string; now: number }): Promise<CredentialCheck> {
  const no = (error: string): CredentialCheck => ({ ok: false, error });
  if (!isObject(vc)) return no("a credential must be a JSON object");
  const context = vc["@context"];
  if (!Array.isArray(context) || !CREDENTIAL_CONTEXTS.includes(context[0] as string)) return no(`@context must start with ${CREDENTIALS_CONTEXT}`);
  if (!Array.isArray(vc.type) || !vc.type.includes("VerifiableCredential")) return no('type must be an array including "VerifiableCredential"');
  const issuer = typeof vc.issuer === "string" ? vc.issuer : isObject(vc.issuer) && typeof vc.issuer.id === "string" ? vc.issuer.id : null;
  if (issuer === null) return no("issuer must be a did (or an object with an id)");
  if (!isObject(vc.credentialSubject) || vc.credentialSubject.id !== o.subject) return no(`credentialSubject.id must be this motebit (${o.subject})`);
  for (const field of ["validUntil", "expirationDate"]) {
    if (vc[field] === undefined) continue;
    const until = typeof vc[field] === "string" ? Date.parse(vc[field] as string) : NaN;
    if (!Number.isFinite(until)) return no(`${field} must be a date-time`);
    if (until <= o.now) return no(`the credential expired at ${vc[field] as string}`);
  }
  const proof = vc.proof;
  if (!isObject(proof) || proof.type !== "DataIntegrityProof" || proof.cryptosuite !== "eddsa-jcs-2022") {
    return no("proof must be an eddsa-jcs-2022 DataIntegrityProof");
  }
  if (proof.proofPurpose !== "assertionMethod") return no('proof.proofPurpose must be "assertionMethod"');
  if (typeof proof.verificationMethod !== "string" || proof.verificationMethod.split("#")[0] !== issuer) return no("proof.verificationMethod must be the issuer's key");
  if (typeof proof.proofValue !== "string" || !proof.proofValue.startsWith("z")) return no("proof.proofValue must be multibase base58btc (z…)");
  let publicKeyHex: string;
  let signature: Uint8Array;
  try {
    publicKeyHex = didKeyToPublicKey(issuer);
    signature = base58btcDecode(proof.proofValue.slice(1));
  } catch (e) {
    return no(`the issuer must be a did:key this motebit can verify offline (${(e as Error).message})`);
  }
  const { proofValue: _value, ...options } = proof;
  const message = await dataIntegrityMessage(vc, options as Omit<DataIntegrityProof, "proofValue">);
  if (!(await verifySignature(publicKeyHex, message, signature))) return no("the issuer's proof does not verify");
  return { ok: true, credential: vc, issuer };
}

// W3C Verifiable Presentation with an eddsa-jcs-2022 Data Integrity proof: the motebit_credentials answer
// (motebit/credential@1.0 §2.2, §5), so the reference's verifiers read it as they read their own.
import { base58btcEncode } from "./base58.js";
import { utf8 } from "./bytes.js";
import { canonicalJson } from "./canonical-json.js";
import { publicKeyToDidKey } from "./did-key.js";
import type { Signer } from "./ed25519.js";

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

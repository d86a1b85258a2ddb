// A W3C VerifiableCredential about `subject`, issued and proven (eddsa-jcs-2022, assertionMethod) by `issuer`,
// as a relay or peer motebit would issue one.
import { base58btcEncode } from "../../../src/protocol/base58.js";
import { CREDENTIALS_CONTEXT, dataIntegrityMessage, publicKeyToDidKey, type Signer } from "../../../src/protocol/index.js";

export async function issueCredential(issuer: Signer, subject: string, extra: Record<string, unknown> = {}): Promise<Record<string, unknown>> {
  const did = publicKeyToDidKey(issuer.publicKeyHex);
  const doc = {
    "@context": [CREDENTIALS_CONTEXT],
    type: ["VerifiableCredential", "AgentReputationCredential"],
    issuer: did,
    validFrom: "2026-01-01T00:00:00Z",
    credentialSubject: { id: subject, tasks_completed: 12 },
    ...extra,
  };
  const options = {
    type: "DataIntegrityProof" as const,
    cryptosuite: "eddsa-jcs-2022" as const,
    created: "2026-01-01T00:00:00Z",
    verificationMethod: `${did}#${did.slice("did:key:".length)}`,
    proofPurpose: "assertionMethod" as const,
  };
  const signature = await issuer.sign(await dataIntegrityMessage(doc, options));
  return { ...doc, proof: { ...options, proofValue: "z" + base58btcEncode(signature) } };
}

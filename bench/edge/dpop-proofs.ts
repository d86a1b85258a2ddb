// A DPoP side's headers for request i: `DPoP <token>` and its own proof (htm POST, htu the side's URL, ath of the
// token, a fresh jti, the server's nonce). Proofs are made before the batch that sends them, outside the timed part,
// so the client's signing stays out of the figures; not all at start, since a proof's iat is good for only 60 s
// (PROOF_WINDOW_MS) and a whole run takes longer.
import { makeProof } from "../../test/shared/dpop-proof.js";
import type { DpopGrant } from "./oauth-tokens.js";

export function dpopProofs(grant: DpopGrant, htu: string) {
  const proofs = new Map<number, string>();
  return {
    auth(i: number): Record<string, string> {
      const proof = proofs.get(i);
      if (proof === undefined) throw new Error(`DPoP: no proof made for request ${i}`);
      proofs.delete(i);
      return { Authorization: `DPoP ${grant.token}`, DPoP: proof };
    },
    async ready(from: number, count: number): Promise<void> {
      for (let i = from; i < from + count; i++) proofs.set(i, await makeProof(grant.key, "POST", htu, { token: grant.token, nonce: grant.nonce }));
    },
  };
}

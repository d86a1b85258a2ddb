// /mcp's stateless DPoP check (RFC 9449 §7), run where the request came in (the Worker, before the Durable Object;
// the Node process): a bound token only as `DPoP <token>` with a proof of this request by the bound key, an unbound
// one only as Bearer. Its single use and nonce are the gate's (dpop-gate.ts), where the replay set is.
import type { TokenBinding } from "../../callers/signed-token.js";
import { verifyDpopProof } from "../dpop/proof.js";
import type { DpopRefusalReason } from "../dpop/challenge.js";
import { dpopResourceRefusal } from "./dpop-answers.js";
import { proofJti, type DpopAdmission } from "./dpop-gate.js";

/** `resource` is this motebit's /mcp on the base the host vouches for (what the proof's htu must name). */
export async function dpopAtResource(
  request: Request,
  b: TokenBinding,
  resource: string,
  now: number,
): Promise<{ ok: true; admission: DpopAdmission } | { ok: false; response: Response }> {
  if (b.jkt === null) return refused("not_dpop_bound");
  if (b.scheme !== "DPoP") return refused("dpop_bound");
  const v = await verifyDpopProof(request.headers.get("DPoP"), { method: request.method, uri: resource, now, accessToken: b.token });
  if (!v.ok) return refused(v.reason);
  if (v.proof.jkt !== b.jkt) return refused("key_mismatch");
  return { ok: true, admission: { jti: proofJti(v.proof), nonce: v.proof.nonce } };
}

function refused(reason: DpopRefusalReason): { ok: false; response: Response } {
  return { ok: false, response: dpopResourceRefusal(reason) };
}

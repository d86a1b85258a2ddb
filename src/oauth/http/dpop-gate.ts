// The stateful half of DPoP, where the replay set and the motebit's key are (the Durable Object, the Node process):
// the server nonce and the proof's single use, at the token endpoint and at /mcp. The stateless checks (signature,
// claims, binding) run before, where the request came in (proof.ts, dpop-resource.ts).
import type { ReplayStore } from "../../callers/replay-store.js";
import type { JtiClaim } from "../../callers/signed-token.js";
import type { GrantKeys } from "../dpop/grant-keys.js";
import type { DpopNonces } from "../dpop/nonce.js";
import { PROOF_WINDOW_MS, verifyDpopProof, type CheckedProof } from "../dpop/proof.js";
import { dpopResourceRefusal, dpopTokenRefusal } from "./dpop-answers.js";

/** What /mcp's stateless check hands on for a DPoP-bound token: the proof's single use and the nonce it carries. */
export interface DpopAdmission {
  jti: JtiClaim;
  nonce: string | null;
}

/** A proof's entry in the replay set: under its key's thumbprint, so no client can spend another's jti. */
export function proofJti(p: CheckedProof): JtiClaim {
  return { jti: `dpop:${p.jkt}:${p.jti}`, keepUntil: p.iat + PROOF_WINDOW_MS };
}

export class DpopGate {
  constructor(
    private readonly replay: ReplayStore,
    private readonly nonces: DpopNonces,
    /** The key each grant's refresh tokens are bound to. */
    readonly grantKeys: GrantKeys,
  ) {}

  /** /mcp: the refusal (a stale or missing nonce, a replayed proof), or null when the call may go on. */
  async admitAtResource(d: DpopAdmission, now: number): Promise<Response | null> {
    if (!(await this.nonces.accepts(d.nonce, now))) return dpopResourceRefusal("nonce", await this.nonces.current(now));
    return this.replay.consume(d.jti.jti, d.jti.keepUntil) ? null : dpopResourceRefusal("replayed");
  }

  /**
   * The token endpoint: the key a token request proves (its RFC 7638 thumbprint), null without a DPoP header (a
   * Bearer token, as before), or the 400 to send.
   */
  async tokenRequestKey(request: Request, tokenUrl: string, now: number): Promise<{ ok: true; jkt: string | null } | { ok: false; response: Response }> {
    const header = request.headers.get("DPoP");
    if (header === null) return { ok: true, jkt: null };
    const v = await verifyDpopProof(header, { method: request.method, uri: tokenUrl, now });
    if (!v.ok) return { ok: false, response: dpopTokenRefusal(v.reason) };
    if (!(await this.nonces.accepts(v.proof.nonce, now))) return { ok: false, response: dpopTokenRefusal("nonce", await this.nonces.current(now)) };
    const { jti, keepUntil } = proofJti(v.proof);
    if (!this.replay.consume(jti, keepUntil)) return { ok: false, response: dpopTokenRefusal("replayed") };
    return { ok: true, jkt: v.proof.jkt };
  }
}

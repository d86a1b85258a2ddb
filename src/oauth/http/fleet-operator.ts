// The operator's OAuth operations on a fleet motebit (worker/fleet-oauth-api.ts), run where the motebit's key and
// grants are (its object): the approval is signed there, so the operator's token can approve without ever holding a key.
import { APPROVABLE_TRUST } from "../approval.js";
import type { AuthorizationServer } from "./authorization-server.js";

/** allow: a keyed agent may use client_credentials at `resource` (the motebit's /mcp, as the Worker names it), with `scope` (absent: all four). */
export type FleetOAuthOp =
  | { op: "approve"; code: string; trust: string }
  | { op: "allow"; clientId: string; trust: string; scope?: string; resource: string }
  | { op: "list" }
  | { op: "revoke"; clientId: string };

export type FleetOAuthAnswer = { ok: true; value: unknown } | { ok: false; status: 400 | 404; error: string };

export async function runFleetOAuthOp(oauth: AuthorizationServer, op: FleetOAuthOp): Promise<FleetOAuthAnswer> {
  switch (op.op) {
    case "approve": {
      const trust = APPROVABLE_TRUST.find((t) => t === op.trust);
      if (trust === undefined) return { ok: false, status: 400, error: `trust must be one of ${APPROVABLE_TRUST.join(", ")}` };
      const a = await oauth.operatorApproval(op.code, trust);
      return a.ok ? { ok: true, value: { approval: a.approval, request: a.request } } : { ok: false, status: 404, error: a.why };
    }
    case "allow":
      return oauth.approveKeyedClient(op.clientId, op.trust, op.scope, op.resource);
    case "list":
      return { ok: true, value: oauth.ownerListing() };
    case "revoke":
      return oauth.revokeClient(op.clientId) ? { ok: true, value: { revoked: op.clientId } } : { ok: false, status: 404, error: "no such client" };
  }
}

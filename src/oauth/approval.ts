// The owner's approval of one consent request, signed by the motebit's key (motebit-local oauth approve, or a fleet
// motebit's object for its operator). It names everything the code it unlocks is bound to — client, redirect URI,
// PKCE challenge, resource, the OAuth scopes it grants — and expires with the request, so it approves that request and nothing else.
import type { CallerTrust } from "../principal.js";
import type { Signer, VerifySignature } from "../protocol/index.js";
import { ALL_SCOPES } from "../policy/admission/oauth-scopes.js";
import { openEnvelope, signEnvelope } from "./signed-envelope.js";
import type { ConsentRequest } from "./store.js";

export const APPROVAL_CONTEXT = "motebit-oauth-approval-v1";
/** What the owner may grant: "blocked" is no grant at all, and "trusted" is kept for callers the owner pins. */
export const APPROVABLE_TRUST: readonly CallerTrust[] = ["first_contact", "verified"];

/** What the authorization server publishes about a pending request, so the approver signs exactly it. */
export interface RequestDetails {
  motebit_id: string;
  request: string;
  client_id: string;
  client_name: string;
  redirect_uri: string;
  code_challenge: string;
  resource: string;
  /** The OAuth scopes asked for (canonical, space-delimited): what the approval grants. */
  scope: string;
  expires_at: number;
}

export interface Approval {
  sub: string;
  request: string;
  client_id: string;
  redirect_uri: string;
  code_challenge: string;
  resource: string;
  scope: string;
  trust: CallerTrust;
  exp: number;
}

export function requestDetails(motebitId: string, r: ConsentRequest, clientName: string): RequestDetails {
  return {
    motebit_id: motebitId, request: r.code, client_id: r.clientId, client_name: clientName, redirect_uri: r.redirectUri,
    code_challenge: r.codeChallenge, resource: r.resource, scope: r.scope, expires_at: r.expiresAt,
  };
}

export function signApproval(d: RequestDetails, trust: CallerTrust, signer: Signer): Promise<string> {
  if (!APPROVABLE_TRUST.includes(trust)) throw new Error(`trust must be one of ${APPROVABLE_TRUST.join(", ")}`);
  const a: Approval = {
    sub: d.motebit_id, request: d.request, client_id: d.client_id, redirect_uri: d.redirect_uri, code_challenge: d.code_challenge,
    resource: d.resource, scope: d.scope, trust, exp: d.expires_at,
  };
  return signEnvelope(APPROVAL_CONTEXT, a, signer);
}

export type ApprovalCheck = { ok: true; trust: CallerTrust; scope: string } | { ok: false; why: string };

/** The approval, if it is the owner's, for exactly this request, and not past its expiry. */
/**
 * What the owner pasted, as the refusal shows it back: its start and length, anything but printable ASCII escaped
 * (a control character or a bidi override cannot rewrite the page), so a pasted JSON answer or a wrong line is seen.
 */
function pasted(text: string): string {
  const chars = [...text.trim()];
  const start = chars.slice(0, 24).map((c) => (/^[\x20-\x7e]$/.test(c) ? c : `\\u{${c.codePointAt(0)!.toString(16)}}`)).join("");
  return `what was pasted ("${start}${chars.length > 24 ? "…" : ""}", ${chars.length} characters)`;
}

export async function checkApproval(
  text: string,
  r: ConsentRequest,
  identity: { motebitId: string; publicKeyHex: string },
  now: number,
  verify?: VerifySignature,
): Promise<ApprovalCheck> {
  const a = await openEnvelope(APPROVAL_CONTEXT, text.trim(), identity.publicKeyHex, verify);
  if (a === null) return { ok: false, why: text.trim() === "" ? "nothing was pasted" : `${pasted(text)} is not an approval signed by this motebit's key` };
  const bound = a.sub === identity.motebitId && a.request === r.code && a.client_id === r.clientId && a.redirect_uri === r.redirectUri &&
    // An approval signed before scopes (an older CLI) names none: it grants all four, as approvals then did.
    a.code_challenge === r.codeChallenge && a.resource === r.resource && (a.scope ?? ALL_SCOPES) === r.scope;
  if (!bound) return { ok: false, why: "this approval is for another request" };
  if (typeof a.exp !== "number" || !(now < a.exp)) return { ok: false, why: "this approval has expired" };
  if (!APPROVABLE_TRUST.includes(a.trust as CallerTrust)) return { ok: false, why: "this approval names no trust it may grant" };
  return { ok: true, trust: a.trust as CallerTrust, scope: r.scope };
}

// Admission: "may this principal run this tool now?", decided here and nowhere else. tools/list and motebit_tools
// (what a caller is shown), tools/call in every mode (sessions, 2026-07-28 retries, MCP tasks), motebit_task's
// direct and AI runs, motebit_query, and the relay's tasks all ask admit(), so what is listed is what runs. Fails closed.
// An OAuth caller's scopes are held here too: for a tool in admit(), for initialize and the listings in admitMethod().
import type { Principal } from "../../principal.js";
import { scopeAllows } from "../../protocol/index.js";
import type { Governance } from "../governance.js";
import type { RiskLevel } from "../risk.js";
import { admits, type Audience } from "./audience.js";
import { methodScope, scopeIncludes, type OAuthScope } from "./oauth-scopes.js";
import {
  approvalMessage,
  DEFAULT_DENY_REASON,
  firstContactMessage,
  outsideGrantMessage,
  outsideScopeMessage,
  policyDenied,
  stoppedMessage,
  unknownToolMessage,
} from "./refusals.js";

/**
 * Which path asks. The paths differ in one rule only, the approval band: an MCP request's owner may be asked
 * (`ownerCanBeAsked`), a task step runs what governance allows, and a model is never offered a band tool when it
 * serves a peer (even a trusted one: there is no approver to ask mid-turn).
 */
export type Moment = "request" | "task-step" | "model-offer";

/** The tool as admission reads it: what it declares, never guessed from its name or description. */
export interface AdmittedTool {
  name: string;
  /** null: the tool declared no risk level admission can read; it is denied. */
  risk: RiskLevel | null;
  audience: Audience;
  /** The OAuth scope an MCP request for it needs (a served tool: motebit:tools; a synthetic one declares its own). */
  oauthScope: OAuthScope;
  /** Signs a receipt for every outcome (motebit_task): work that may not run now still reaches it, to be signed. */
  signsEveryOutcome?: boolean;
  /** What the tool itself refuses this caller with, whatever the arguments (a synthetic tool's declaration), or null. */
  declaredRefusal?: () => string | null;
}

export interface AdmissionAsk {
  moment: Moment;
  /** The principal as it stands now (its trust as the host's settings say today). */
  principal: Principal;
  tool: AdmittedTool;
  governance: Governance;
  /** Why no work may run now (run-now.ts: standing lost, a task's attempt cap), or null. */
  stop?: string | null;
  /** A call admitted before its host stopped, now concluded with its receipt: nothing runs again. */
  concluding?: boolean;
  /** A delegation token's scope: the task's work is bounded by it. */
  delegatedScope?: string;
  /** The owner's client can be asked before a call in the approval band runs (it declared elicitation). */
  ownerCanBeAsked?: boolean;
}

/**
 * allow: run it. ask_owner: the owner's approval-band call, run once the owner accepts when asked. hidden: the
 * tool's audience leaves this caller out (it does not exist for it). deny / approval: refused with `message`
 * (audited as "denied" / "approval_required"). insufficient_scope: the caller's OAuth grant does not take in the tool
 * (`scope`, what it needs); not listed, and a call is answered HTTP 403 so the client can step up (audited as "denied").
 */
export type Admission =
  | { outcome: "allow" }
  | { outcome: "insufficient_scope"; message: string; scope: OAuthScope }
  | { outcome: "ask_owner"; message: string }
  | { outcome: "hidden"; message: string }
  | { outcome: "deny"; message: string }
  | { outcome: "approval"; message: string };

const ALLOW: Admission = Object.freeze({ outcome: "allow" });

/**
 * The one decision. Order matters: who the tool is for, then whether anything may run now, then what a delegation
 * bounds, then refusals that hold for everyone, then caller trust, then the governance bands, then the tool's own
 * refusal. There is no approval queue over MCP, so the approval band runs only for the owner (the approver) and for
 * peers the owner pinned as "trusted"; every other caller gets the approval refusal.
 */
export function admit(a: AdmissionAsk): Admission {
  const { principal, tool, governance } = a;
  if (!admits(tool.audience, principal.kind)) return { outcome: "hidden", message: unknownToolMessage(tool.name) };
  // A call admitted before its host stopped is concluded with its receipt whatever is refused now: nothing runs.
  if (a.concluding === true && tool.signsEveryOutcome === true) return ALLOW;
  // A tool that signs every outcome answers a stop itself, with a signed receipt saying why.
  if (a.stop != null) return tool.signsEveryOutcome === true ? ALLOW : { outcome: "deny", message: stoppedMessage(a.stop) };
  if (a.delegatedScope !== undefined && !scopeAllows(a.delegatedScope, tool.name)) {
    return { outcome: "deny", message: outsideScopeMessage(tool.name, a.delegatedScope) };
  }
  // The OAuth scopes an access token was granted bound what its client may ask over MCP, before governance is read.
  // A task's own steps are the motebit's work for the caller, bounded by its trust and delegation as before.
  if (a.moment === "request") {
    const short = grantShortfall(principal, tool.oauthScope, `the tool ${tool.name}`);
    if (short !== null) return short;
  }
  const risk = tool.risk;
  if (risk === null) return { outcome: "deny", message: policyDenied("tool has no declared risk level") };
  if (principal.kind === "peer" && principal.trust === "blocked") return { outcome: "deny", message: policyDenied("caller is blocked") };
  if (risk > governance.denyAbove) return { outcome: "deny", message: policyDenied(DEFAULT_DENY_REASON) };
  let admitted = ALLOW;
  if (principal.kind === "peer" && principal.trust === "first_contact") {
    if (risk !== 0) return { outcome: "approval", message: firstContactMessage(tool.name) };
  } else if (inApprovalBand(risk, governance)) {
    const band = bandAdmission(a, principal);
    if (band.outcome !== "allow") {
      if (band.outcome !== "ask_owner") return band;
      admitted = band;
    }
  }
  const declared = tool.declaredRefusal?.() ?? null;
  return declared === null ? admitted : { outcome: "deny", message: declared };
}

/**
 * An MCP request other than tools/call (initialize, the listings) as an OAuth grant reaches it: null when the grant
 * (or a caller without one) may make it, else the insufficient_scope refusal.
 */
export function admitMethod(principal: Principal, method: string): Extract<Admission, { outcome: "insufficient_scope" }> | null {
  const needed = methodScope(method);
  return needed === null ? null : grantShortfall(principal, needed, method);
}

/** The refusal of a caller whose OAuth scopes do not include `needed`; null for one they do, or who has none (not OAuth). */
function grantShortfall(principal: Principal, needed: OAuthScope, what: string): Extract<Admission, { outcome: "insufficient_scope" }> | null {
  if (principal.kind !== "peer" || principal.scope === undefined || scopeIncludes(principal.scope, needed)) return null;
  return { outcome: "insufficient_scope", message: outsideGrantMessage(what, needed), scope: needed };
}

/** A call in the approval band: the owner is the approver (asked when it can be), a trusted peer runs it, others are refused. */
function bandAdmission(a: AdmissionAsk, principal: Principal): Admission {
  if (principal.kind === "owner") return a.ownerCanBeAsked === true ? { outcome: "ask_owner", message: approvalMessage(a.tool.name) } : ALLOW;
  if (principal.trust === "trusted" && a.moment !== "model-offer") return ALLOW;
  return { outcome: "approval", message: approvalMessage(a.tool.name) };
}

/** Whether a call at `risk` (not above the deny band) needs approval: both thresholds must agree before one skips it, so a misordered policy errs strict. */
function inApprovalBand(risk: RiskLevel, governance: Governance): boolean {
  return !(risk <= governance.maxRiskAuto && risk <= governance.requireApprovalAbove);
}

/** Whether a delegation's scope takes in this tool: what a task may choose among before it asks admit(). */
export function inDelegatedScope(scope: string | undefined, toolName: string): boolean {
  return scope === undefined || scopeAllows(scope, toolName);
}

/** A refusal of the caller (what tools/list shows and tools/call answers), or null when the tool would run. */
export type Refusal = { outcome: "deny" | "approval"; message: string };

export function refusalOf(d: Admission): Refusal | null {
  if (d.outcome === "allow" || d.outcome === "ask_owner") return null;
  // A hidden tool never reaches a listing (the catalog leaves it out), nor one outside the grant; were either asked
  // about, it is refused.
  return { outcome: d.outcome === "approval" ? "approval" : "deny", message: d.message };
}

import { describe, expect, it } from "vitest";
import { admit, admitMethod, inDelegatedScope, refusalOf, type Admission, type AdmissionAsk, type AdmittedTool, type Moment } from "../../../src/policy/admission/admit.js";
import { servedAudience } from "../../../src/policy/admission/audience.js";
import { whyNotRunNow } from "../../../src/policy/admission/run-now.js";
import { firstContactMessage } from "../../../src/policy/admission/refusals.js";
import { DEFAULT_SERVICE_GOVERNANCE, type Governance } from "../../../src/policy/governance.js";
import type { RiskLevel } from "../../../src/policy/risk.js";
import { OWNER, type CallerTrust, type Principal } from "../../../src/principal.js";

const peer = (trust: CallerTrust): Principal => ({ kind: "peer", callerId: "caller-1", via: "signed_token", trust });
const personal: Governance = { maxRiskAuto: 1, requireApprovalAbove: 1, denyAbove: 3 };

const ALLOW: Admission = { outcome: "allow" };
const APPROVAL_TEXT = 'Governance: tool "t" requires approval from the motebit owner. This tool is in the approval band of the governance policy.';
const APPROVAL: Admission = { outcome: "approval", message: APPROVAL_TEXT };
const ASK_OWNER: Admission = { outcome: "ask_owner", message: APPROVAL_TEXT };
/** A first_contact caller's refusal above R0 names its trust, not a band the tool may not be in. */
const FIRST_CONTACT: Admission = { outcome: "approval", message: firstContactMessage("t") };
const DENIED: Admission = { outcome: "deny", message: "Policy denied: tool not allowed by governance policy" };

const tool = (risk: RiskLevel | null, over: Partial<AdmittedTool> = {}): AdmittedTool => ({ name: "t", risk, audience: "both", oauthScope: "motebit:tools", ...over });
const at = (risk: RiskLevel | null, principal: Principal, governance = personal, over: Partial<AdmissionAsk> = {}) =>
  admit({ moment: "request", principal, tool: tool(risk), governance, ...over });
const levels = (principal: Principal, over: Partial<AdmissionAsk> = {}, governance = personal) =>
  [0, 1, 2, 3, 4].map((r) => at(r as RiskLevel, principal, governance, over));

describe("admission", () => {
  // Under `personal`: R0-R1 auto, R2-R3 approval band, R4 denied.
  const table: [string, Principal, Admission[]][] = [
    ["owner", OWNER, [ALLOW, ALLOW, ALLOW, ALLOW, DENIED]],
    ["trusted peer", peer("trusted"), [ALLOW, ALLOW, ALLOW, ALLOW, DENIED]],
    ["verified peer", peer("verified"), [ALLOW, ALLOW, APPROVAL, APPROVAL, DENIED]],
    ["first-contact peer", peer("first_contact"), [ALLOW, FIRST_CONTACT, FIRST_CONTACT, FIRST_CONTACT, DENIED]],
  ];
  for (const [who, principal, expected] of table) {
    it(`decides R0-R4 for a ${who} in a request and a task step alike`, () => {
      expect(levels(principal)).toEqual(expected);
      expect(levels(principal, { moment: "task-step" })).toEqual(expected);
    });
  }

  it("reads a listing's refusal off the decision: allow and ask_owner run, deny and approval are refused", () => {
    expect(refusalOf(ALLOW)).toBeNull();
    expect(refusalOf(ASK_OWNER)).toBeNull();
    expect(refusalOf(APPROVAL)).toEqual(APPROVAL);
    expect(refusalOf(DENIED)).toEqual(DENIED);
  });

  it("asks the owner in the approval band when its client can be asked, and only then", () => {
    expect(levels(OWNER, { ownerCanBeAsked: true })).toEqual([ALLOW, ALLOW, ASK_OWNER, ASK_OWNER, DENIED]);
    // A peer is never asked: there is no approval queue over MCP.
    expect(levels(peer("verified"), { ownerCanBeAsked: true })).toEqual([ALLOW, ALLOW, APPROVAL, APPROVAL, DENIED]);
  });

  it("offers a model no approval-band tool when it serves a peer, even a trusted one; the owner's model gets them", () => {
    const offer = { moment: "model-offer" as Moment };
    expect(levels(peer("trusted"), offer)).toEqual([ALLOW, ALLOW, APPROVAL, APPROVAL, DENIED]);
    expect(levels(OWNER, offer)).toEqual([ALLOW, ALLOW, ALLOW, ALLOW, DENIED]);
  });

  it("denies a blocked peer everything, R0 included", () => {
    for (const r of [0, 1, 2, 3, 4] as RiskLevel[]) {
      expect(at(r, peer("blocked"))).toEqual({ outcome: "deny", message: "Policy denied: caller is blocked" });
    }
  });

  it("denies a tool without a declared risk for everyone, the owner included", () => {
    for (const p of [OWNER, peer("trusted"), peer("verified"), peer("first_contact")]) {
      expect(at(null, p)).toEqual({ outcome: "deny", message: "Policy denied: tool has no declared risk level" });
    }
  });

  it("names the tool in the approval text", () => {
    expect(admit({ moment: "request", tool: { ...tool(2), name: "shell_exec" }, principal: peer("verified"), governance: personal })).toEqual({
      outcome: "approval",
      message:
        'Governance: tool "shell_exec" requires approval from the motebit owner. This tool is in the approval band of the governance policy.',
    });
  });

  it("under the service preset runs R0-R3 for verified peers and denies R4 to everyone", () => {
    for (const p of [OWNER, peer("trusted"), peer("verified")]) {
      expect(levels(p, {}, DEFAULT_SERVICE_GOVERNANCE)).toEqual([ALLOW, ALLOW, ALLOW, ALLOW, DENIED]);
    }
    expect(levels(peer("first_contact"), {}, DEFAULT_SERVICE_GOVERNANCE)).toEqual([ALLOW, FIRST_CONTACT, FIRST_CONTACT, FIRST_CONTACT, DENIED]);
  });

  it("errs strict when the auto and approval thresholds disagree", () => {
    expect(at(2, peer("verified"), { maxRiskAuto: 3, requireApprovalAbove: 1, denyAbove: 4 })).toEqual(APPROVAL);
    expect(at(2, peer("verified"), { maxRiskAuto: 1, requireApprovalAbove: 3, denyAbove: 4 })).toEqual(APPROVAL);
    expect(at(1, peer("verified"), { maxRiskAuto: 3, requireApprovalAbove: 1, denyAbove: 4 })).toEqual(ALLOW);
  });

  it("hides a tool whose audience leaves the caller out, before any other rule", () => {
    const ownerOnly = tool(0, { audience: "owner" });
    expect(admit({ moment: "request", principal: peer("trusted"), tool: ownerOnly, governance: personal })).toEqual({ outcome: "hidden", message: "Unknown tool: t" });
    expect(admit({ moment: "request", principal: OWNER, tool: ownerOnly, governance: personal })).toEqual(ALLOW);
    expect(admit({ moment: "request", principal: OWNER, tool: tool(0, { audience: "peer" }), governance: personal })).toEqual({ outcome: "hidden", message: "Unknown tool: t" });
    expect(refusalOf({ outcome: "hidden", message: "Unknown tool: t" })).toEqual({ outcome: "deny", message: "Unknown tool: t" });
    // A tools module's localOnly is the owner's alone.
    expect([servedAudience({ localOnly: true }), servedAudience({ localOnly: false }), servedAudience({})]).toEqual(["owner", "both", "both"]);
  });

  it("refuses everything once work may not run now, except a tool that signs every outcome", () => {
    expect(at(0, OWNER, personal, { stop: "gone" })).toEqual({ outcome: "deny", message: "Denied: gone" });
    expect(admit({ moment: "request", principal: peer("blocked"), tool: tool(4, { signsEveryOutcome: true }), governance: personal, stop: "gone" })).toEqual(ALLOW);
  });

  it("lets a concluding call of a tool that signs every outcome through whatever is refused now, and no other", () => {
    const signs = tool(4, { signsEveryOutcome: true });
    expect(admit({ moment: "request", principal: peer("blocked"), tool: signs, governance: personal, concluding: true })).toEqual(ALLOW);
    expect(at(4, OWNER, personal, { concluding: true })).toEqual(DENIED);
  });

  it("holds a task's tools to its delegated scope before governance", () => {
    expect(at(0, OWNER, personal, { delegatedScope: "other" })).toEqual({ outcome: "deny", message: 'Policy denied: tool "t" is outside the delegated scope "other"' });
    expect(at(0, OWNER, personal, { delegatedScope: "t" })).toEqual(ALLOW);
    expect(at(4, OWNER, personal, { delegatedScope: "t" })).toEqual(DENIED);
    expect(inDelegatedScope(undefined, "t")).toBe(true);
    expect(inDelegatedScope("other", "t")).toBe(false);
  });

  it("refuses with the tool's own declaration only once governance would let it run", () => {
    const declaring = (risk: RiskLevel) => tool(risk, { declaredRefusal: () => "no model" });
    expect(admit({ moment: "request", principal: OWNER, tool: declaring(0), governance: personal })).toEqual({ outcome: "deny", message: "no model" });
    expect(admit({ moment: "request", principal: peer("verified"), tool: declaring(2), governance: personal })).toEqual(APPROVAL);
    expect(admit({ moment: "request", principal: OWNER, tool: declaring(2), governance: personal, ownerCanBeAsked: true })).toEqual({ outcome: "deny", message: "no model" });
    expect(admit({ moment: "request", principal: peer("first_contact"), tool: declaring(0), governance: personal })).toEqual({ outcome: "deny", message: "no model" });
  });

  it("stops a task past its attempt cap, and a caller who lost its standing", () => {
    expect(whyNotRunNow({ ok: true, principal: OWNER }, 3, 3)).toBeNull();
    expect(whyNotRunNow({ ok: true, principal: OWNER }, 4, 3)).toBe("the task was started 3 times and its host stopped during each; it is not run again");
    expect(whyNotRunNow({ ok: false, reason: "revoked" }, 1, 3)).toBe("the caller lost its standing (revoked)");
    expect(whyNotRunNow({ ok: true, principal: OWNER }, undefined, 3)).toBeNull();
  });

  describe("OAuth scopes", () => {
    const oauth = (scope: string): Principal => ({ kind: "peer", callerId: "oauth:c", via: "oauth", trust: "verified", grant: "g", scope });
    const needs = (scope: AdmittedTool["oauthScope"]) => tool(0, { name: "motebit_task", oauthScope: scope });

    it("refuses a request for a tool outside the grant as insufficient_scope, naming the scope it needs, before governance", () => {
      const d = admit({ moment: "request", principal: oauth("motebit:read"), tool: needs("motebit:task"), governance: personal });
      expect(d).toEqual({ outcome: "insufficient_scope", scope: "motebit:task", message: expect.stringContaining("motebit:task") });
      // Beyond the grant even where governance would deny: the scope is asked first, so a step-up is what the client learns.
      expect(admit({ moment: "request", principal: oauth("motebit:read"), tool: tool(4, { oauthScope: "motebit:tools" }), governance: personal }).outcome).toBe("insufficient_scope");
      expect(refusalOf(d)).toEqual({ outcome: "deny", message: (d as { message: string }).message });
    });

    it("admits a tool inside the grant as it would any caller of that trust", () => {
      expect(admit({ moment: "request", principal: oauth("motebit:read motebit:task"), tool: needs("motebit:task"), governance: personal })).toEqual(ALLOW);
      expect(admit({ moment: "request", principal: oauth("motebit:tools"), tool: tool(2), governance: personal })).toEqual(APPROVAL);
    });

    it("leaves a task's own steps and callers without OAuth scopes to trust and delegation alone", () => {
      expect(admit({ moment: "task-step", principal: oauth("motebit:task"), tool: tool(0), governance: personal })).toEqual(ALLOW);
      expect(admit({ moment: "request", principal: peer("verified"), tool: needs("motebit:task"), governance: personal })).toEqual(ALLOW);
      expect(admit({ moment: "request", principal: OWNER, tool: needs("motebit:remember"), governance: personal })).toEqual(ALLOW);
    });

    it("holds initialize and the listings to motebit:read, and leaves ping and tools/call to the tool's rule", () => {
      expect(admitMethod(oauth("motebit:task"), "initialize")).toEqual({ outcome: "insufficient_scope", scope: "motebit:read", message: expect.stringContaining("initialize") });
      expect(admitMethod(oauth("motebit:task"), "tools/list")?.scope).toBe("motebit:read");
      expect(admitMethod(oauth("motebit:task"), "resources/read")?.scope).toBe("motebit:read");
      expect(admitMethod(oauth("motebit:task"), "ping")).toBeNull();
      expect(admitMethod(oauth("motebit:task"), "tools/call")).toBeNull();
      expect(admitMethod(oauth("motebit:read"), "initialize")).toBeNull();
      expect(admitMethod(peer("verified"), "initialize")).toBeNull();
    });
  });
});

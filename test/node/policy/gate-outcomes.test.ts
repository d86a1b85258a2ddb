import { describe, expect, it } from "vitest";
import { decide, firstContactMessage, type GateDecision } from "../../../src/policy/gate.js";
import { DEFAULT_SERVICE_GOVERNANCE, type Governance } from "../../../src/policy/governance.js";
import type { RiskLevel } from "../../../src/policy/risk.js";
import { OWNER, type CallerTrust, type Principal } from "../../../src/principal.js";

const peer = (trust: CallerTrust): Principal => ({ kind: "peer", callerId: "caller-1", via: "signed_token", trust });
const personal: Governance = { maxRiskAuto: 1, requireApprovalAbove: 1, denyAbove: 3 };

const ALLOW: GateDecision = { outcome: "allow" };
const APPROVAL: GateDecision = {
  outcome: "approval",
  message: 'Governance: tool "t" requires approval from the motebit owner. This tool is in the approval band of the governance policy.',
};
/** A first_contact caller's refusal above R0 names its trust, not a band the tool may not be in. */
const FIRST_CONTACT: GateDecision = { outcome: "approval", message: firstContactMessage("t") };
const DENIED: GateDecision = { outcome: "deny", message: "Policy denied: tool not allowed by governance policy" };

const at = (risk: RiskLevel | null, principal: Principal, governance = personal) => decide({ toolName: "t", risk, principal, governance });

describe("policy gate", () => {
  // Under `personal`: R0-R1 auto, R2-R3 approval band, R4 denied.
  const table: [string, Principal, (GateDecision)[]][] = [
    ["owner", OWNER, [ALLOW, ALLOW, ALLOW, ALLOW, DENIED]],
    ["trusted peer", peer("trusted"), [ALLOW, ALLOW, ALLOW, ALLOW, DENIED]],
    ["verified peer", peer("verified"), [ALLOW, ALLOW, APPROVAL, APPROVAL, DENIED]],
    ["first-contact peer", peer("first_contact"), [ALLOW, FIRST_CONTACT, FIRST_CONTACT, FIRST_CONTACT, DENIED]],
  ];
  for (const [who, principal, expected] of table) {
    it(`decides R0-R4 for a ${who}`, () => {
      expect([0, 1, 2, 3, 4].map((r) => at(r as RiskLevel, principal))).toEqual(expected);
    });
  }

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

  it("uses the given reason in the deny-band text", () => {
    expect(decide({ toolName: "pay", risk: 4, principal: OWNER, governance: personal, reason: "payments are off" })).toEqual({
      outcome: "deny",
      message: "Policy denied: payments are off",
    });
  });

  it("names the tool in the approval text", () => {
    expect(decide({ toolName: "shell_exec", risk: 2, principal: peer("verified"), governance: personal })).toEqual({
      outcome: "approval",
      message:
        'Governance: tool "shell_exec" requires approval from the motebit owner. This tool is in the approval band of the governance policy.',
    });
  });

  it("under the service preset runs R0-R3 for verified peers and denies R4 to everyone", () => {
    for (const p of [OWNER, peer("trusted"), peer("verified")]) {
      expect([0, 1, 2, 3, 4].map((r) => at(r as RiskLevel, p, DEFAULT_SERVICE_GOVERNANCE))).toEqual([ALLOW, ALLOW, ALLOW, ALLOW, DENIED]);
    }
    expect([0, 1, 2, 3].map((r) => at(r as RiskLevel, peer("first_contact"), DEFAULT_SERVICE_GOVERNANCE))).toEqual([
      ALLOW,
      FIRST_CONTACT,
      FIRST_CONTACT,
      FIRST_CONTACT,
    ]);
  });

  it("errs strict when the auto and approval thresholds disagree", () => {
    const misordered: Governance = { maxRiskAuto: 3, requireApprovalAbove: 1, denyAbove: 4 };
    expect(at(2, peer("verified"), misordered)).toEqual(APPROVAL);
    expect(at(1, peer("verified"), misordered)).toEqual(ALLOW);
  });
});

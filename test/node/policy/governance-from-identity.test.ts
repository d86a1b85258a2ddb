import { describe, expect, it } from "vitest";
import { DEFAULT_SERVICE_GOVERNANCE, governanceFromIdentity } from "../../../src/policy/governance.js";
import type { IdentityDoc } from "../../../src/protocol/index.js";

const block = (over: Record<string, unknown>) =>
  ({ trust_mode: "guarded", max_risk_auto: "R1_DRAFT", require_approval_above: "R1_DRAFT", deny_above: "R4_MONEY", operator_mode: false, ...over }) as IdentityDoc["governance"];

describe("governanceFromIdentity", () => {
  it("reads the personal preset's bands", () => {
    expect(governanceFromIdentity(block({}))).toEqual({ maxRiskAuto: 1, requireApprovalAbove: 1, denyAbove: 4 });
  });

  it("reads the service preset as the default service governance", () => {
    const g = governanceFromIdentity(block({ max_risk_auto: "R3_EXECUTE", require_approval_above: "R3_EXECUTE", deny_above: "R3_EXECUTE" }));
    expect(g).toEqual(DEFAULT_SERVICE_GOVERNANCE);
    expect(DEFAULT_SERVICE_GOVERNANCE).toEqual({ maxRiskAuto: 3, requireApprovalAbove: 3, denyAbove: 3 });
  });

  it("accepts integers 0-4", () => {
    expect(governanceFromIdentity(block({ max_risk_auto: 0, require_approval_above: 2, deny_above: 4 }))).toEqual({
      maxRiskAuto: 0,
      requireApprovalAbove: 2,
      denyAbove: 4,
    });
  });

  it.each([
    ["max_risk_auto", "R9_ANYTHING"],
    ["require_approval_above", "high"],
    ["deny_above", 7],
    ["deny_above", undefined],
  ])("throws naming %s when it is %j", (field, value) => {
    expect(() => governanceFromIdentity(block({ [field]: value }))).toThrow(new RegExp(`governance\\.${field} is .*expected one of R0_READ`));
  });

  it("throws when the block is missing", () => {
    expect(() => governanceFromIdentity(undefined as unknown as IdentityDoc["governance"])).toThrow(/governance is missing/);
  });
});

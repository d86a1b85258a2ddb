// Governance bands from the identity file (docs/protocol.md §7): auto, approval, deny.

import type { IdentityDoc } from "../protocol/index.js";
import { parseRisk, RISK_NAMES, type RiskLevel } from "./risk.js";

export interface Governance {
  /** Risk at or below this runs without approval. */
  maxRiskAuto: RiskLevel;
  /** Risk above this needs the owner's approval (the gate honours the stricter of this and maxRiskAuto). */
  requireApprovalAbove: RiskLevel;
  /** Risk above this is refused for everyone, the owner included. */
  denyAbove: RiskLevel;
}

/** The `service` preset: R0–R3 run automatically, R4 is denied. */
export const DEFAULT_SERVICE_GOVERNANCE: Governance = Object.freeze({
  maxRiskAuto: 3,
  requireApprovalAbove: 3,
  denyAbove: 3,
});

/** Reads the identity file's governance block; throws naming the field when a level is not a risk level. */
export function governanceFromIdentity(g: IdentityDoc["governance"]): Governance {
  if (typeof g !== "object" || g === null) throw new Error("identity governance is missing or not an object");
  const field = (key: "max_risk_auto" | "require_approval_above" | "deny_above"): RiskLevel => {
    const raw: unknown = g[key];
    const level = parseRisk(raw);
    if (level === null) {
      throw new Error(
        `identity governance.${key} is ${JSON.stringify(raw) ?? "undefined"}, expected one of ${RISK_NAMES.join(", ")} or an integer 0-4`,
      );
    }
    return level;
  };
  return {
    maxRiskAuto: field("max_risk_auto"),
    requireApprovalAbove: field("require_approval_above"),
    denyAbove: field("deny_above"),
  };
}

// Risk levels are wire law (docs/protocol.md §7): R0_READ=0 … R4_MONEY=4.

export type RiskLevel = 0 | 1 | 2 | 3 | 4;

export const RISK_NAMES = ["R0_READ", "R1_DRAFT", "R2_WRITE", "R3_EXECUTE", "R4_MONEY"] as const;

/**
 * "R2_WRITE" or the integer 2 → 2. Anything else (other spellings, "2", 2.5, undefined) → null,
 * so callers fail closed instead of guessing a level.
 */
export function parseRisk(v: unknown): RiskLevel | null {
  if (typeof v === "number") return Number.isInteger(v) && v >= 0 && v <= 4 ? (v as RiskLevel) : null;
  if (typeof v === "string") {
    const i = (RISK_NAMES as readonly string[]).indexOf(v);
    return i >= 0 ? (i as RiskLevel) : null;
  }
  return null;
}

export function riskName(r: RiskLevel): string {
  return RISK_NAMES[r];
}

// Sensitivity levels, lowest to highest. The order matters: retention and recall exclusions are
// expressed per level, and anything that is not exactly one of these names is refused (fail closed).

export type Sensitivity = "none" | "personal" | "medical" | "financial" | "secret";

export const SENSITIVITIES: readonly Sensitivity[] = Object.freeze(["none", "personal", "medical", "financial", "secret"]);

/** Exact lowercase allowlist: "Secret", " none" or a number are not sensitivities. */
export function parseSensitivity(v: unknown): Sensitivity | null {
  return typeof v === "string" && (SENSITIVITIES as readonly string[]).includes(v) ? (v as Sensitivity) : null;
}

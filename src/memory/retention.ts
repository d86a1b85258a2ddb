// Retention per sensitivity, from the identity file's privacy.retention_days. A memory older than its
// sensitivity's retention is purged (its row deleted and its vector removed), and recall never serves it
// even before the purge has run. 0 days means "not retained": gone at the next purge, never recalled.
import { SENSITIVITIES, type Sensitivity } from "./sensitivity.js";

const DAY_MS = 86_400_000;

export type RetentionDays = Record<Sensitivity, number>;

/** The values a new identity file carries (motebit/identity@1.0 defaults). */
export const DEFAULT_RETENTION_DAYS: Readonly<RetentionDays> = Object.freeze({
  none: 365,
  personal: 90,
  medical: 30,
  financial: 30,
  secret: 7,
});

/** Validates a retention table; a missing level takes its default. Throws on negative or non-numeric days. */
export function parseRetentionDays(v: unknown): RetentionDays {
  if (v === undefined || v === null) return { ...DEFAULT_RETENTION_DAYS };
  if (typeof v !== "object" || Array.isArray(v)) throw new Error("retention_days must be an object keyed by sensitivity");
  const src = v as Record<string, unknown>;
  const out = { ...DEFAULT_RETENTION_DAYS };
  for (const s of SENSITIVITIES) {
    const days = src[s];
    if (days === undefined) continue;
    if (typeof days !== "number" || !Number.isFinite(days) || days < 0) {
      throw new Error(`retention_days.${s} must be a non-negative number of days, got ${JSON.stringify(days)}`);
    }
    out[s] = days;
  }
  return out;
}

/** A memory of this sensitivity created before the cutoff is expired. */
export function retentionCutoff(days: RetentionDays, sensitivity: Sensitivity, now: number): number {
  return now - days[sensitivity] * DAY_MS;
}

export function isExpired(days: RetentionDays, sensitivity: Sensitivity, createdAt: number, now: number): boolean {
  const d = days[sensitivity];
  return d === 0 || createdAt < retentionCutoff(days, sensitivity, now);
}

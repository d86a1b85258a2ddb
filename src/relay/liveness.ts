// When to talk to the relay next, as pure logic both hosts drive (a timer in motebit-local, a Durable Object
// alarm at the edge): heartbeat every interval; a full re-register when the last success is stale, when a
// heartbeat says the relay forgot us (404/410), when what we would register changed, and hourly; failures
// back off exponentially up to one heartbeat interval, so a down relay never sees a hot loop.

export interface LivenessTimings {
  heartbeatMs: number;
  /** Re-register when the last success is older than this. */
  staleMs: number;
  /** Re-register at least this often. */
  reregisterMs: number;
  backoffBaseMs: number;
  backoffMaxMs: number;
}

/** The schedule at the default 5-minute heartbeat: stale after 10 min, hourly re-register, 5 s … 5 min backoff. */
export function timingsFor(heartbeatMs: number): LivenessTimings {
  return {
    heartbeatMs,
    staleMs: 2 * heartbeatMs,
    reregisterMs: 12 * heartbeatMs,
    backoffBaseMs: Math.max(50, Math.min(5_000, Math.round(heartbeatMs / 60))),
    backoffMaxMs: heartbeatMs,
  };
}

export interface LivenessState {
  lastSuccessAt: number | null;
  lastRegisterAt: number | null;
  lastAttemptAt: number | null;
  /** What the last successful registration announced (endpoint, capabilities, key): a change means register again. */
  registeredFingerprint: string | null;
  /** Consecutive failures; 0 after any success. */
  failures: number;
  /** The relay said it does not know us. */
  forceRegister: boolean;
}

export const INITIAL_LIVENESS: LivenessState = {
  lastSuccessAt: null,
  lastRegisterAt: null,
  lastAttemptAt: null,
  registeredFingerprint: null,
  failures: 0,
  forceRegister: false,
};

export type LivenessAction = "register" | "heartbeat";

export interface Plan {
  action: LivenessAction;
  /** Epoch ms; at or before now means "now". */
  at: number;
}

export function backoffMs(failures: number, t: LivenessTimings): number {
  if (failures <= 0) return 0;
  return Math.min(t.backoffMaxMs, t.backoffBaseMs * 2 ** Math.min(failures - 1, 30));
}

function mustRegister(s: LivenessState, fingerprint: string, at: number, t: LivenessTimings): boolean {
  return (
    s.forceRegister ||
    s.lastRegisterAt === null ||
    s.lastSuccessAt === null ||
    s.registeredFingerprint !== fingerprint ||
    at - s.lastSuccessAt > t.staleMs ||
    at - s.lastRegisterAt >= t.reregisterMs
  );
}

/** What to do next and when, given what happened so far. */
export function plan(s: LivenessState, fingerprint: string, now: number, t: LivenessTimings): Plan {
  if (s.failures > 0 && s.lastAttemptAt !== null) {
    const at = Math.max(now, s.lastAttemptAt + backoffMs(s.failures, t));
    return { action: mustRegister(s, fingerprint, at, t) ? "register" : "heartbeat", at };
  }
  if (mustRegister(s, fingerprint, now, t)) return { action: "register", at: now };
  const heartbeatAt = s.lastSuccessAt! + t.heartbeatMs;
  const reregisterAt = s.lastRegisterAt! + t.reregisterMs;
  return reregisterAt <= heartbeatAt ? { action: "register", at: reregisterAt } : { action: "heartbeat", at: heartbeatAt };
}

/** How an attempt ended: ok, the relay forgot us (heartbeat 404/410), or a failure. */
export type AttemptResult = "ok" | "unknown_to_relay" | "failed";

export function record(s: LivenessState, action: LivenessAction, result: AttemptResult, fingerprint: string, now: number): LivenessState {
  if (result === "ok") {
    return {
      ...s,
      lastSuccessAt: now,
      lastAttemptAt: now,
      failures: 0,
      ...(action === "register" ? { lastRegisterAt: now, registeredFingerprint: fingerprint, forceRegister: false } : {}),
    };
  }
  // The relay answered, so it is up: register right away rather than back off.
  if (result === "unknown_to_relay") return { ...s, lastAttemptAt: now, failures: 0, forceRegister: true };
  return { ...s, lastAttemptAt: now, failures: s.failures + 1 };
}

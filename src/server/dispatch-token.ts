// motebit_task's dispatch_token: a `task:dispatch` admission record, checked exactly like a bearer token
// (same keys, suite, signature, expiry, lifetime, subject) but for its own audience, and single-use.
import type { Clock, SqlPort } from "../ports.js";
import type { DispatchTokenVerifier } from "../mcp/context.js";
import { withoutSignedPrefix } from "../protocol/index.js";
import { verifySignedToken, type AuthSettings, type ServerIdentity } from "./auth.js";
import { ReplayStore } from "./replay-store.js";

export const DISPATCH_AUDIENCE = "task:dispatch";

export function dispatchTokenVerifier(o: {
  sql: SqlPort;
  clock: Clock;
  settings: AuthSettings;
  identity: ServerIdentity;
}): DispatchTokenVerifier {
  const replay = new ReplayStore(o.sql, o.clock);
  replay.migrate();
  return async (raw) => {
    const token = withoutSignedPrefix(raw);
    const r = await verifySignedToken(token, o.settings, o.identity, o.clock.now(), DISPATCH_AUDIENCE);
    if (!r.ok) return { ok: false, reason: r.body.reason ?? r.body.error };
    if (r.jti !== null && !replay.consume(r.jti.jti, r.jti.keepUntil)) return { ok: false, reason: "jti_replayed" };
    return { ok: true };
  };
}

// motebit_task's dispatch_token: a `task:dispatch` admission record issued by the relay. It is checked like a
// bearer token (suite, signature, expiry, lifetime, subject) for its own audience, single-use, and only under
// the pinned relay key: a known caller or this motebit's own key cannot admit work on the relay's behalf.
// It is bound to its presenter: the relay itself may present any token it signed; anyone else only one whose `mid`
// is its own motebit_id (a static-token caller has none, so it presents none). The binding is checked before the
// jti is spent, so a token shown by the wrong caller stays usable by the right one.
import type { Clock, SqlPort } from "../ports.js";
import type { DispatchTokenVerifier } from "../agent/task.js";
import type { Principal } from "../principal.js";
import { withoutSignedPrefix } from "../protocol/index.js";
import { verifySignedToken, type AuthSettings, type ServerIdentity } from "../callers/signed-token.js";
import { ReplayStore } from "../callers/replay-store.js";

export const DISPATCH_AUDIENCE = "task:dispatch";

export function dispatchTokenVerifier(o: {
  sql: SqlPort;
  clock: Clock;
  settings: AuthSettings;
  identity: ServerIdentity;
}): DispatchTokenVerifier {
  const replay = new ReplayStore(o.sql, o.clock);
  replay.migrate();
  // Only the relay key: with no known callers, every mid but our own resolves to it (only relayId, when set).
  const relayOnly: AuthSettings = { staticTokens: new Map(), knownCallers: new Map(), relayTrust: o.settings.relayTrust, relayId: o.settings.relayId };
  return async (raw, presenter) => {
    if (relayOnly.relayTrust === null) return { ok: false, reason: "no_key_for_caller" };
    const token = withoutSignedPrefix(raw);
    const r = await verifySignedToken(token, relayOnly, o.identity, o.clock.now(), DISPATCH_AUDIENCE);
    if (!r.ok) return { ok: false, reason: r.body.reason ?? r.body.error };
    if (r.principal.via !== "relay") return { ok: false, reason: "no_key_for_caller" };
    if (!presents(presenter, r.principal.callerId)) return { ok: false, reason: "presenter_mismatch" };
    if (r.jti !== null && !replay.consume(r.jti.jti, r.jti.keepUntil)) return { ok: false, reason: "jti_replayed" };
    return { ok: true };
  };
}

/** `tokenCaller` is the relay-key principal's id for the token, "relay:<mid>". */
function presents(presenter: Principal, tokenCaller: string): boolean {
  if (presenter.kind !== "peer") return false;
  if (presenter.via === "relay") return true;
  return presenter.via === "signed_token" && `relay:${presenter.callerId}` === tokenCaller;
}

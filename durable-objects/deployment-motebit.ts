// The deployment's own motebit's role in its Durable Object (worker/durable-object-backend.ts reaches it through the
// core's ObjectBackend): settings from the env, started by its first call (the Worker, the cron or its alarm).
import { type DiscoveryAnswer, type IdentityAnswer, type LogQuery, type McpCall, type OAuthUrls, startupFailureResponse } from "../src/index.js";
import { runRelayAlarm } from "./relay-alarm.js";
import { type ObjectState, type Started, startBlocking } from "./start-motebit.js";

/** Deregistration's budget, within the wrapper's own wait (scripts/start-edge.mjs). */
const LEAVE_RELAY_BUDGET_MS = 1_500;

export class DeploymentMotebit {
  constructor(private readonly o: ObjectState) {}

  async identity(): Promise<IdentityAnswer> {
    const s = await this.started();
    if (!s.ok) return s;
    return { ok: true, motebitId: s.motebitId, publicKeyHex: s.publicKeyHex };
  }

  /** The relay loop's clock (relay-alarm.ts). */
  async alarm(): Promise<void> {
    const s = await this.started();
    if (s.ok && s.relay !== null) await runRelayAlarm(s.relay, this.o.ctx.storage);
  }

  /**
   * Leaves the relay before this edge stops (`npm start`'s wrapper asks on Ctrl-C through the Worker's scheduled handler, worker/create-worker.ts): a stopped
   * edge left registered is where the relay keeps routing tasks. Best effort within the budget; the next start finds
   * itself unknown to the relay and registers again.
   */
  async leaveRelay(): Promise<void> {
    const s = await this.started();
    if (s.ok && s.relay !== null) await s.relay.stop(LEAVE_RELAY_BUDGET_MS);
  }

  /** The cron trigger's call: being constructed is the point (start-up schedules the relay loop). */
  async wake(): Promise<void> {
    await this.started();
  }

  async handleMcp(call: McpCall): Promise<Response> {
    const s = await this.started();
    return s.ok ? s.backend.handleMcp(call) : startupFailureResponse(s.error);
  }

  /** The deployment's motebit as an authorization server (src/oauth/): its grants live in this object's SQLite. */
  async handleOAuth(request: Request, urls: OAuthUrls, source: string): Promise<Response> {
    const s = await this.started();
    return s.ok ? s.backend.oauth.handle(request, urls, null, source) : startupFailureResponse(s.error);
  }

  /** The transparency log's public head and proofs, from this object's SQLite. */
  async handleLog(query: LogQuery): Promise<Response> {
    const s = await this.started();
    return s.ok ? s.backend.handleLog(query) : startupFailureResponse(s.error);
  }

  /** Its public facts and signed discovery documents, on the URLs the Worker vouches for. */
  async discovery(urls: OAuthUrls): Promise<DiscoveryAnswer> {
    const s = await this.started();
    return s.ok ? { ok: true, value: await s.backend.discovery(urls, null) } : { ok: false, status: 500, error: s.error };
  }

  private started(): Promise<Started> {
    return (this.o.started ??= startBlocking(this.o, null));
  }
}

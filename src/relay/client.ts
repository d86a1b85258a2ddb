// The agent side of the relay API (docs/protocol.md §9), over a fetch port: bootstrap, register, heartbeat, deregister,
// task submission and polling. Every answer is a value (never a throw): ok with the JSON body, or the status
// (null when the relay could not be reached) and a hint that says what to check.
import type { Clock } from "../ports.js";
import { mintBearerToken, type Signer } from "../protocol/index.js";
import type { TraceHeaders } from "../telemetry/trace-context.js";

export type FetchPort = (input: string, init?: RequestInit) => Promise<Response>;

/**
 * How this motebit proves itself to the relay: the relay's API token when one is set, else a token signed with its
 * own key. The key is always at hand: deregistration names the motebit by a signed token only (docs/protocol.md §9.1).
 */
export interface RelayAuth {
  apiToken: string | null;
  signer: Signer;
  motebitId: string;
  deviceId: string;
}

/** Token audiences the reference relay checks: its plain agent routes (register, heartbeat, deregister), submission, polling. */
export const AGENT_ROUTE_AUDIENCE = "admin:query";
export const TASK_SUBMIT_AUDIENCE = "task:submit";
export const TASK_QUERY_AUDIENCE = "task:query";

const SIGNED_TOKEN_TTL_MS = 60_000;
const DEFAULT_REQUEST_TIMEOUT_MS = 10_000;

export type RelayAnswer<T = Record<string, unknown>> =
  | { ok: true; status: number; body: T }
  | { ok: false; status: number | null; error: string; hint: string };

/** A task submission as the reference relay reads it: it forwards only tasks naming a capability. */
export interface RelayTaskSubmission {
  prompt: string;
  required_capabilities: string[];
  /** The submitting motebit: the relay never routes a task back to it. */
  submitted_by?: string;
}

export interface RegisterBody {
  motebit_id: string;
  public_key: string;
  endpoint_url: string;
  capabilities: string[];
  metadata: Record<string, unknown>;
}

export class RelayClient {
  readonly syncUrl: string;
  private readonly fetch: FetchPort;
  private readonly auth: RelayAuth;
  private readonly clock: Clock;
  private readonly timeoutMs: number;

  constructor(o: { syncUrl: string; fetch: FetchPort; clock: Clock; auth: RelayAuth; timeoutMs?: number }) {
    this.syncUrl = o.syncUrl;
    this.clock = o.clock;
    this.fetch = o.fetch;
    this.auth = o.auth;
    this.timeoutMs = o.timeoutMs ?? DEFAULT_REQUEST_TIMEOUT_MS;
  }

  /** The relay learns our key, so it can check the tokens we sign (deregistration is signed even with an API token). */
  bootstrap(b: { motebit_id: string; device_id: string; public_key: string }): Promise<RelayAnswer> {
    return this.send("POST", "/api/v1/agents/bootstrap", b, null);
  }

  register(b: RegisterBody): Promise<RelayAnswer> {
    return this.send("POST", "/api/v1/agents/register", b, AGENT_ROUTE_AUDIENCE);
  }

  heartbeat(motebitId: string): Promise<RelayAnswer> {
    return this.send("POST", "/api/v1/agents/heartbeat", { motebit_id: motebitId }, AGENT_ROUTE_AUDIENCE);
  }

  /** Always signed: the relay reads which motebit leaves from the token, and answers an API token with 400. */
  deregister(motebitId: string, timeoutMs?: number): Promise<RelayAnswer> {
    return this.send("DELETE", "/api/v1/agents/deregister", { motebit_id: motebitId }, AGENT_ROUTE_AUDIENCE, {}, timeoutMs, true);
  }

  submitTask(motebitId: string, task: RelayTaskSubmission, idempotencyKey: string): Promise<RelayAnswer> {
    return this.send("POST", `/agent/${encodeURIComponent(motebitId)}/task`, task, TASK_SUBMIT_AUDIENCE, { "Idempotency-Key": idempotencyKey });
  }

  /** `trace`: W3C trace context headers (traceparent, tracestate) to send with it. */
  pollTask(motebitId: string, taskId: string, trace?: TraceHeaders): Promise<RelayAnswer> {
    return this.send("GET", `/agent/${encodeURIComponent(motebitId)}/task/${encodeURIComponent(taskId)}`, undefined, TASK_QUERY_AUDIENCE, { ...trace });
  }

  get usesApiToken(): boolean {
    return this.auth.apiToken !== null;
  }

  private async authorization(audience: string, signed: boolean): Promise<string> {
    if (this.auth.apiToken !== null && !signed) return `Bearer ${this.auth.apiToken}`;
    // A fresh token per request: relays keep each jti single-use.
    const token = await mintBearerToken({ mid: this.auth.motebitId, did: this.auth.deviceId, aud: audience, ttlMs: SIGNED_TOKEN_TTL_MS, iat: this.clock.now() }, this.auth.signer);
    return `Bearer ${token}`;
  }

  private async send(
    method: string,
    path: string,
    body: unknown,
    audience: string | null,
    extra: Record<string, string> = {},
    timeoutMs = this.timeoutMs,
    signed = false,
  ): Promise<RelayAnswer> {
    const headers: Record<string, string> = { Accept: "application/json", ...extra };
    if (body !== undefined) headers["Content-Type"] = "application/json";
    if (audience !== null) headers.Authorization = await this.authorization(audience, signed);
    let res: Response;
    try {
      res = await this.fetch(this.syncUrl + path, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (e) {
      const why = (e as Error)?.name === "TimeoutError" ? `no answer within ${timeoutMs} ms` : ((e as Error)?.message ?? String(e));
      return { ok: false, status: null, error: `relay unreachable (${why})`, hint: `is ${this.syncUrl} right and the relay running?` };
    }
    const raw = await res.text().catch(() => "");
    let parsed: unknown = null;
    try {
      parsed = raw === "" ? {} : JSON.parse(raw);
    } catch {
      parsed = null;
    }
    if (res.ok) {
      if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
        return { ok: false, status: res.status, error: `relay answered ${res.status} with a body that is not a JSON object`, hint: `is ${this.syncUrl} a motebit relay?` };
      }
      return { ok: true, status: res.status, body: parsed as Record<string, unknown> };
    }
    const detail = detailOf(parsed, raw);
    return { ok: false, status: res.status, error: `relay answered ${res.status}${detail ? ` (${detail})` : ""}`, hint: this.hintFor(res.status, path, signed) };
  }

  private hintFor(status: number, path: string, signed: boolean): string {
    if (status === 401 || status === 403) {
      return this.auth.apiToken !== null && !signed
        ? "check apiToken (MOTEBIT_RELAY_API_TOKEN)"
        : "the relay refused this motebit's signed token: set apiToken if the relay needs one, and check the clock";
    }
    if ((status === 404 || status === 410) && path.startsWith("/api/v1/agents/heartbeat")) return "the relay no longer knows this motebit: registering again";
    if (status === 404) return `check syncUrl: ${this.syncUrl} has no motebit agent API`;
    if (status === 409) return "the relay holds another key for this motebit_id";
    if (status === 402) return "fund this motebit's budget on the relay";
    if (status === 429) return "the relay is rate-limiting this motebit: backing off";
    if (status >= 500) return "the relay has a problem on its side: retrying with backoff";
    return "see the relay's answer";
  }
}

function detailOf(parsed: unknown, raw: string): string {
  if (parsed !== null && typeof parsed === "object") {
    const p = parsed as Record<string, unknown>;
    const msg = p.error ?? p.message;
    if (typeof msg === "string") return msg.slice(0, 200);
    if (msg && typeof msg === "object" && typeof (msg as Record<string, unknown>).message === "string") {
      return String((msg as Record<string, unknown>).message).slice(0, 200);
    }
  }
  return raw.trim().slice(0, 120);
}

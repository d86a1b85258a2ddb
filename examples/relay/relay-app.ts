// A small relay for trying the loop offline and for tests. On the wire it behaves like the reference relay
// (motebit/motebit services/relay, docs/protocol.md §9.1): the agent API (bootstrap, register, heartbeat, deregister) under
// `admin:query` tokens or the API token, deregistration by a signed token only, task submission and polling
// (`task:submit` / `task:query`), routing that needs a required capability and never picks the submitter, forwarding
// of {prompt, relay_task_id} only with `Bearer <API token>` (or relay-signed mcp:call tokens, the product document's
// newer relay), a failed forward leaving the task pending, and the same status codes and error bodies. Settling: a
// receipt is verified, must be signed by the routed agent's key and bound to this task id, and only then turns the
// held budget into a payout (completed) or a refund. In memory; not a production relay.
import { Hono, type Context } from "hono";
import { parseBearerToken, verifyBearerToken, verifyReceipt, withoutSignedPrefix, type Signer } from "../../src/protocol/index.js";
import { forwardTask } from "./forward.js";

export interface Agent {
  motebit_id: string;
  public_key: string;
  endpoint_url: string;
  capabilities: string[];
  metadata: Record<string, unknown>;
  registered_at: number;
  last_heartbeat: number;
}

export type RelayTaskStatus = "pending" | "completed";

export interface Settlement {
  outcome: "paid" | "refunded" | "refused";
  reason: string;
  at: number;
}

export interface Task {
  task_id: string;
  /** The agent named in the submission URL (polling checks it); routing may pick another agent. */
  motebit_id: string;
  prompt: string;
  status: RelayTaskStatus;
  submitted_at: number;
  /** The signed submitter, else the body's submitted_by; absent under the API token without one. */
  submitted_by?: string;
  required_capabilities?: string[];
  /** The agent the task was forwarded to (not on the reference's wire; what the tests read). */
  routed_to?: string;
  settlement?: Settlement;
}

export interface RelayEvent {
  at: number;
  kind: "bootstrap" | "register" | "heartbeat" | "deregister" | "submit" | "forward_failed" | "settle";
  motebit_id: string;
  detail?: string;
}

export interface LocalRelay {
  app: Hono;
  relayId: string;
  publicKeyHex: string;
  agents: Map<string, Agent>;
  tasks: Map<string, { task: Task; receipt: unknown }>;
  /** Everything that happened, in order: what the tests read. */
  events: RelayEvent[];
  /** Resolves once every forward started so far has settled (or failed). */
  idle(): Promise<void>;
}

export interface LocalRelayOptions {
  signer: Signer;
  relayId: string;
  /** The relay's API token ("master token"): accepted instead of a signed token, and sent when forwarding. */
  apiToken?: string | null;
  /** How forwards authenticate: "api_token" (the reference relay today, default) or relay-signed mcp:call tokens. */
  forwardAuth?: "api_token" | "signed";
  log?: (line: string) => void;
  /** Overrides for tests: answer every agent-API call with this status (e.g. 500), or stall it this long. */
  fault?: { status?: number; delayMs?: number };
  fetch?: typeof fetch;
}

const MAX_TOKEN_LIFETIME_MS = 5 * 60_000;

/** The reference relay's error bodies: `{error, status}` for its plain HTTP errors, plus `code` for its typed ones. */
class RelayHttpError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 409 | 500,
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

export function createLocalRelay(o: LocalRelayOptions): LocalRelay {
  const log = o.log ?? (() => {});
  const apiToken = o.apiToken ?? null;
  const keys = new Map<string, string>(); // motebit_id → public key (bootstrap)
  const agents = new Map<string, Agent>();
  const tasks = new Map<string, { task: Task; receipt: unknown }>();
  const idempotency = new Map<string, { task_id: string; status: RelayTaskStatus; routing_choice: unknown }>(); // target + key → first answer
  const seenJti = new Set<string>();
  const events: RelayEvent[] = [];
  const inFlight = new Set<Promise<void>>();
  const deviceId = crypto.randomUUID();
  const event = (kind: RelayEvent["kind"], motebit_id: string, detail?: string) => events.push({ at: Date.now(), kind, motebit_id, ...(detail ? { detail } : {}) });

  /** A signed token's mid when it verifies for `audience` under the key the motebit bootstrapped; null otherwise. */
  async function verifiedMid(token: string, audience: string): Promise<string | null> {
    const parsed = parseBearerToken(token);
    if (!parsed.ok) return null;
    const key = keys.get(parsed.claims.mid);
    if (!key) return null;
    const v = await verifyBearerToken(token, key);
    if (!v.ok || v.claims.aud !== audience || v.claims.exp - v.claims.iat > MAX_TOKEN_LIFETIME_MS || seenJti.has(v.claims.jti)) return null;
    seenJti.add(v.claims.jti);
    return v.claims.mid;
  }

  function bearer(c: Context): string | null {
    const h = c.req.header("Authorization");
    return h !== undefined && h.startsWith("Bearer ") ? h.slice(7) : null;
  }

  const isApiToken = (token: string) => apiToken !== null && apiToken !== "" && token === apiToken;

  /** The agent routes (services/relay agents.ts): the API token, else a signed `admin:query` token. Null mid = API token. */
  async function agentCaller(c: Context): Promise<string | null> {
    const token = bearer(c);
    if (token === null) throw new RelayHttpError(401, "Missing auth token");
    if (isApiToken(token)) return null;
    const token_ = withoutSignedPrefix(token);
    const parsed = parseBearerToken(token_);
    if (!parsed.ok) throw new RelayHttpError(401, "Invalid token");
    const mid = await verifiedMid(token_, "admin:query");
    if (mid === null) throw new RelayHttpError(401, "Token verification failed");
    return mid;
  }

  /** Task submission (the reference's dualAuth): the API token, else a signed `task:submit` token. */
  async function submitCaller(c: Context): Promise<string | null> {
    const token = bearer(c);
    if (token === null) throw new RelayHttpError(401, "Missing authorization", "AUTH_MISSING_TOKEN");
    if (isApiToken(token)) return null;
    const token_ = withoutSignedPrefix(token);
    if (!parseBearerToken(token_).ok) throw new RelayHttpError(401, "Invalid token", "AUTH_INVALID_TOKEN");
    const mid = await verifiedMid(token_, "task:submit");
    if (mid === null) throw new RelayHttpError(401, "Token verification failed", "AUTH_INVALID_TOKEN");
    return mid;
  }

  /** Task polling: the API token, else a signed `task:query` token. */
  async function queryCaller(c: Context): Promise<string | null> {
    const token = bearer(c);
    if (token === null) throw new RelayHttpError(401, "Authorization required", "AUTH_MISSING_TOKEN");
    if (isApiToken(token)) return null;
    const token_ = withoutSignedPrefix(token);
    if (!token_.includes(".")) throw new RelayHttpError(403, "Invalid authorization", "AUTHZ_INVALID_CREDENTIALS");
    if (!parseBearerToken(token_).ok) throw new RelayHttpError(401, "Invalid token", "AUTH_INVALID_TOKEN");
    const mid = await verifiedMid(token_, "task:query");
    if (mid === null) throw new RelayHttpError(403, "Device not authorized", "AUTHZ_DEVICE_NOT_AUTHORIZED");
    return mid;
  }

  async function json(c: Context): Promise<Record<string, unknown> | null> {
    try {
      const b = await c.req.json();
      return b && typeof b === "object" && !Array.isArray(b) ? (b as Record<string, unknown>) : null;
    } catch {
      return null;
    }
  }

  const app = new Hono();
  app.onError((err, c) => {
    if (err instanceof RelayHttpError) return c.json({ error: err.message, ...(err.code ? { code: err.code } : {}), status: err.status }, err.status);
    log(`relay: internal error: ${err.message}`);
    return c.json({ error: "Internal server error", status: 500, code: "INTERNAL_ERROR" }, 500);
  });
  app.get("/health", (c) => c.json({ status: "ok", relay_id: o.relayId, public_key: o.signer.publicKeyHex }));

  app.use("/api/v1/agents/*", async (c, next) => {
    if (o.fault?.delayMs) await new Promise((r) => setTimeout(r, o.fault!.delayMs));
    if (o.fault?.status) return c.json({ error: "injected fault", status: o.fault.status }, o.fault.status as 500);
    await next();
  });

  app.post("/api/v1/agents/bootstrap", async (c) => {
    const b = await json(c);
    if (!b || typeof b.motebit_id !== "string" || b.motebit_id === "" || typeof b.public_key !== "string" || !/^[0-9a-f]{64}$/i.test(b.public_key)) {
      throw new RelayHttpError(400, "motebit_id and a 64-hex public_key are required");
    }
    const known = keys.get(b.motebit_id);
    if (known && known !== b.public_key.toLowerCase()) throw new RelayHttpError(409, "identity already registered with a different public key");
    keys.set(b.motebit_id, b.public_key.toLowerCase());
    event("bootstrap", b.motebit_id);
    return c.json({ motebit_id: b.motebit_id, device_id: b.device_id ?? null, registered: !known }, known ? 200 : 201);
  });

  app.post("/api/v1/agents/register", async (c) => {
    const caller = await agentCaller(c);
    const b = (await json(c)) ?? {};
    // The reference takes the motebit from the token when there is one, the body only under the API token.
    const id = caller ?? (typeof b.motebit_id === "string" && b.motebit_id !== "" ? b.motebit_id : null);
    if (id === null) throw new RelayHttpError(400, "Missing motebit_id");
    if (typeof b.endpoint_url !== "string" || !/^https?:\/\//.test(b.endpoint_url)) throw new RelayHttpError(400, "Missing or invalid 'endpoint_url'");
    const publicKey = typeof b.public_key === "string" ? b.public_key.toLowerCase() : keys.get(id);
    if (!publicKey) throw new RelayHttpError(400, "Missing public_key");
    const capabilities = Array.isArray(b.capabilities) ? b.capabilities.map(String) : [];
    const now = Date.now();
    agents.set(id, {
      motebit_id: id,
      public_key: publicKey,
      endpoint_url: b.endpoint_url,
      capabilities,
      metadata: (b.metadata as Record<string, unknown>) ?? {},
      registered_at: now,
      last_heartbeat: now,
    });
    if (!keys.has(id)) keys.set(id, publicKey);
    event("register", id, b.endpoint_url);
    log(`relay: registered ${id} at ${b.endpoint_url} (${capabilities.join(", ")})`);
    return c.json({ registered: true, motebit_id: id, expires_at: now + 15 * 60_000 });
  });

  app.post("/api/v1/agents/heartbeat", async (c) => {
    const caller = await agentCaller(c);
    const b = await json(c);
    const id = caller ?? (typeof b?.motebit_id === "string" ? b.motebit_id : null);
    if (id === null) throw new RelayHttpError(400, "Cannot determine motebit_id from token or body");
    const agent = agents.get(id);
    if (!agent) throw new RelayHttpError(404, "Agent not registered");
    agent.last_heartbeat = Date.now();
    event("heartbeat", agent.motebit_id);
    return c.json({ ok: true });
  });

  app.delete("/api/v1/agents/deregister", async (c) => {
    // Only a signed token names who leaves: the API token (and any body) cannot.
    const caller = await agentCaller(c);
    if (caller === null) throw new RelayHttpError(400, "Cannot determine motebit_id from token");
    agents.delete(caller);
    event("deregister", caller);
    log(`relay: deregistered ${caller}`);
    return c.json({ ok: true });
  });

  app.post("/agent/:id/task", async (c) => {
    const caller = await submitCaller(c);
    const target = c.req.param("id");
    const key = c.req.header("Idempotency-Key");
    if (!key) throw new RelayHttpError(400, "Idempotency-Key header is required for task submission", "TASK_INVALID_INPUT");
    const previous = idempotency.get(`${target}\n${key}`);
    if (previous) return c.json(previous, 201);
    const b = await json(c);
    if (!b || typeof b.prompt !== "string" || b.prompt.trim() === "") throw new RelayHttpError(400, "Missing or empty 'prompt' field", "TASK_INVALID_INPUT");
    if (b.required_capabilities != null && !Array.isArray(b.required_capabilities)) {
      throw new RelayHttpError(400, "required_capabilities must be an array of strings", "TASK_INVALID_INPUT");
    }
    const caps = Array.isArray(b.required_capabilities) ? b.required_capabilities.filter((x): x is string => typeof x === "string") : undefined;
    const submittedBy = caller ?? (typeof b.submitted_by === "string" ? b.submitted_by : undefined);
    const task: Task = {
      task_id: crypto.randomUUID(),
      motebit_id: target,
      prompt: b.prompt,
      status: "pending",
      submitted_at: Date.now(),
      ...(submittedBy !== undefined ? { submitted_by: submittedBy } : {}),
      ...(caps !== undefined ? { required_capabilities: caps } : {}),
    };
    tasks.set(task.task_id, { task, receipt: null });
    event("submit", target, task.task_id);
    // Forwarding needs a capability; every agent offering all of them is a candidate, never the submitter.
    const chosen = (caps ?? []).length === 0 ? undefined : [...agents.values()].find((a) => a.motebit_id !== submittedBy && caps!.every((x) => a.capabilities.includes(x)));
    let routingChoice: unknown = null;
    if (chosen !== undefined) {
      task.routed_to = chosen.motebit_id;
      routingChoice = { selected_agent: chosen.motebit_id, composite_score: 1, sub_scores: {}, routing_paths: [[chosen.motebit_id]], alternatives_considered: 0 };
      const p = run(task, chosen).finally(() => inFlight.delete(p));
      inFlight.add(p);
    }
    const answer = { task_id: task.task_id, status: task.status, routing_choice: routingChoice };
    idempotency.set(`${target}\n${key}`, answer);
    return c.json(answer, 201);
  });

  app.get("/agent/:id/task/:taskId", async (c) => {
    const caller = await queryCaller(c);
    const entry = tasks.get(c.req.param("taskId"));
    if (!entry) throw new RelayHttpError(404, "Task not found — it may have expired or the task_id is invalid", "TASK_NOT_FOUND");
    if (entry.task.motebit_id !== c.req.param("id")) {
      throw new RelayHttpError(404, "Task not found — motebit_id in URL does not match the task's target agent", "TASK_NOT_FOUND");
    }
    if (caller !== null && caller !== entry.task.motebit_id && caller !== entry.task.submitted_by) {
      throw new RelayHttpError(403, "Not authorized to poll this task — caller is neither the submitter nor the target agent", "AUTHZ_NOT_TASK_PARTICIPANT");
    }
    return c.json({ task: entry.task, receipt: entry.receipt ?? null });
  });

  async function run(task: Task, agent: Agent): Promise<void> {
    const out = await forwardTask({ endpointUrl: agent.endpoint_url, motebitId: agent.motebit_id }, { taskId: task.task_id, prompt: task.prompt }, {
      auth: o.forwardAuth === "signed" ? { kind: "signed", signer: o.signer, relayId: o.relayId, deviceId } : { kind: "api_token", token: apiToken },
      fetch: o.fetch,
    });
    if (out.kind !== "receipt") {
      // Like the reference: the task stays pending, with no reason on the wire; only the relay's log says why.
      event("forward_failed", agent.motebit_id, `${task.task_id} ${out.reason}`);
      log(`relay: task ${task.task_id} forward to ${agent.motebit_id} failed: ${out.reason}`);
      return;
    }
    // Any receipt completes the task; settling verifies it first.
    const entry = tasks.get(task.task_id)!;
    task.status = "completed";
    entry.receipt = out.receipt;
    const problem = await receiptProblem(out.receipt, task, agent);
    if (problem !== null) settle(task, { outcome: "refused", reason: problem });
    else if ((out.receipt as { status: string }).status === "completed") settle(task, { outcome: "paid", reason: "receipt verified" });
    else settle(task, { outcome: "refunded", reason: `receipt status ${(out.receipt as { status: string }).status}` });
  }

  function settle(task: Task, s: Omit<Settlement, "at">): void {
    task.settlement = { ...s, at: Date.now() };
    event("settle", task.routed_to ?? task.motebit_id, `${task.task_id} ${s.outcome}: ${s.reason}`);
    log(`relay: task ${task.task_id} ${task.status}; settlement: ${s.outcome} (${s.reason})`);
  }

  return {
    app,
    relayId: o.relayId,
    publicKeyHex: o.signer.publicKeyHex,
    agents,
    tasks,
    events,
    idle: async () => {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}

/** Why the relay will not settle on this receipt (null: it will). */
async function receiptProblem(receipt: unknown, task: Task, agent: Agent): Promise<string | null> {
  const verdict = await verifyReceipt(receipt);
  if (!verdict.valid) return `signature check failed (${verdict.errors.join("; ")})`;
  const r = receipt as Record<string, unknown>;
  if (r.public_key !== agent.public_key) return "signed by another key than the registered one";
  if (r.motebit_id !== agent.motebit_id) return `motebit_id ${String(r.motebit_id)} is not the agent's`;
  if (r.relay_task_id !== task.task_id) return `relay_task_id ${JSON.stringify(r.relay_task_id)} is not this task (${task.task_id})`;
  return null;
}

// A small relay for trying the loop offline and for tests: the agent API (bootstrap, register, heartbeat,
// deregister), task submission and polling, forwarding to the registered endpoint (forward.ts), and settling:
// a receipt is verified, must be signed by the registered key and bound to this task id, and only then turns
// the held budget into a payout (completed) or a refund (failed/denied). In memory; not a production relay.
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

export type TaskStatus = "pending" | "running" | "completed" | "failed";

export interface Settlement {
  outcome: "paid" | "refunded" | "refused";
  reason: string;
  at: number;
}

export interface Task {
  task_id: string;
  motebit_id: string;
  prompt: string;
  status: TaskStatus;
  submitted_at: number;
  submitted_by: string;
  error?: string;
  settlement?: Settlement;
}

export interface RelayEvent {
  at: number;
  kind: "bootstrap" | "register" | "heartbeat" | "deregister" | "submit" | "settle";
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
  /** A relay API token: accepted as `Bearer <token>` everywhere a signed token is. */
  apiToken?: string | null;
  log?: (line: string) => void;
  /** Overrides for tests: answer every agent-API call with this status (e.g. 500), or stall it this long. */
  fault?: { status?: number; delayMs?: number };
  fetch?: typeof fetch;
}

const MAX_TOKEN_LIFETIME_MS = 5 * 60_000;

export function createLocalRelay(o: LocalRelayOptions): LocalRelay {
  const log = o.log ?? (() => {});
  const keys = new Map<string, string>(); // motebit_id → public key (bootstrap)
  const agents = new Map<string, Agent>();
  const tasks = new Map<string, { task: Task; receipt: unknown }>();
  const idempotency = new Map<string, string>(); // motebit_id + key → task_id
  const seenJti = new Set<string>();
  const events: RelayEvent[] = [];
  const inFlight = new Set<Promise<void>>();
  const deviceId = crypto.randomUUID();
  const event = (kind: RelayEvent["kind"], motebit_id: string, detail?: string) => events.push({ at: Date.now(), kind, motebit_id, ...(detail ? { detail } : {}) });

  /** The caller's motebit_id (null for the API token), or the refusal to send. */
  async function caller(c: Context, audience: string): Promise<{ ok: true; mid: string | null } | { ok: false; res: Response }> {
    const refuse = (reason: string) => ({ ok: false as const, res: c.json({ error: "unauthorized", reason }, 401) });
    const m = /^Bearer\s+(.+)$/i.exec(c.req.header("Authorization") ?? "");
    if (!m) return refuse("missing bearer token");
    const presented = m[1].trim();
    if (o.apiToken && presented === o.apiToken) return { ok: true, mid: null };
    const token = withoutSignedPrefix(presented);
    if (!token.includes(".")) return refuse("wrong api token");
    const parsed = parseBearerToken(token);
    if (!parsed.ok) return refuse(parsed.reason);
    const key = keys.get(parsed.claims.mid);
    if (!key) return refuse("unknown motebit: bootstrap first");
    const v = await verifyBearerToken(token, key);
    if (!v.ok) return refuse(v.reason);
    if (v.claims.aud !== audience) return refuse(`audience must be ${audience}`);
    if (v.claims.exp - v.claims.iat > MAX_TOKEN_LIFETIME_MS) return refuse("lifetime_too_long");
    if (seenJti.has(v.claims.jti)) return refuse("jti_replayed");
    seenJti.add(v.claims.jti);
    return { ok: true, mid: v.claims.mid };
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
    log(`relay: internal error: ${err.message}`);
    return c.json({ error: "internal error" }, 500);
  });
  app.get("/health", (c) => c.json({ status: "ok", relay_id: o.relayId, public_key: o.signer.publicKeyHex }));

  app.use("/api/v1/agents/*", async (c, next) => {
    if (o.fault?.delayMs) await new Promise((r) => setTimeout(r, o.fault!.delayMs));
    if (o.fault?.status) return c.json({ error: "injected fault" }, o.fault.status as 500);
    await next();
  });

  app.post("/api/v1/agents/bootstrap", async (c) => {
    const b = await json(c);
    if (!b || typeof b.motebit_id !== "string" || b.motebit_id === "" || typeof b.public_key !== "string" || !/^[0-9a-f]{64}$/i.test(b.public_key)) {
      return c.json({ error: "motebit_id and a 64-hex public_key are required" }, 400);
    }
    const known = keys.get(b.motebit_id);
    if (known && known !== b.public_key.toLowerCase()) return c.json({ error: "identity already registered with a different public key" }, 409);
    keys.set(b.motebit_id, b.public_key.toLowerCase());
    event("bootstrap", b.motebit_id);
    return c.json({ motebit_id: b.motebit_id, device_id: b.device_id ?? null, registered: !known }, known ? 200 : 201);
  });

  app.post("/api/v1/agents/register", async (c) => {
    const who = await caller(c, "relay:agent");
    if (!who.ok) return who.res;
    const b = await json(c);
    if (!b || typeof b.motebit_id !== "string" || typeof b.endpoint_url !== "string" || !Array.isArray(b.capabilities)) {
      return c.json({ error: "motebit_id, endpoint_url and capabilities[] are required" }, 400);
    }
    if (who.mid !== null && who.mid !== b.motebit_id) return c.json({ error: "a motebit registers only itself" }, 403);
    const publicKey = typeof b.public_key === "string" ? b.public_key.toLowerCase() : keys.get(b.motebit_id);
    if (!publicKey) return c.json({ error: "public_key is required" }, 400);
    const now = Date.now();
    agents.set(b.motebit_id, {
      motebit_id: b.motebit_id,
      public_key: publicKey,
      endpoint_url: b.endpoint_url,
      capabilities: b.capabilities.map(String),
      metadata: (b.metadata as Record<string, unknown>) ?? {},
      registered_at: now,
      last_heartbeat: now,
    });
    if (!keys.has(b.motebit_id)) keys.set(b.motebit_id, publicKey);
    event("register", b.motebit_id, b.endpoint_url);
    log(`relay: registered ${b.motebit_id} at ${b.endpoint_url} (${(b.capabilities as unknown[]).join(", ")})`);
    return c.json({ registered: true, motebit_id: b.motebit_id });
  });

  app.post("/api/v1/agents/heartbeat", async (c) => {
    const who = await caller(c, "relay:agent");
    if (!who.ok) return who.res;
    const b = await json(c);
    const id = who.mid ?? (typeof b?.motebit_id === "string" ? b.motebit_id : null);
    const agent = id === null ? undefined : agents.get(id);
    if (!agent) return c.json({ error: "agent not registered" }, 404);
    agent.last_heartbeat = Date.now();
    event("heartbeat", agent.motebit_id);
    return c.json({ ok: true });
  });

  app.delete("/api/v1/agents/deregister", async (c) => {
    const who = await caller(c, "relay:agent");
    if (!who.ok) return who.res;
    const b = await json(c);
    const id = who.mid ?? (typeof b?.motebit_id === "string" ? b.motebit_id : null);
    if (id === null) return c.json({ error: "motebit_id is required" }, 400);
    agents.delete(id);
    event("deregister", id);
    log(`relay: deregistered ${id}`);
    return c.json({ ok: true });
  });

  app.post("/agent/:id/task", async (c) => {
    const who = await caller(c, "task:submit");
    if (!who.ok) return who.res;
    const target = c.req.param("id");
    const key = c.req.header("Idempotency-Key");
    if (!key) return c.json({ error: "Idempotency-Key header is required" }, 400);
    const b = await json(c);
    if (!b || typeof b.prompt !== "string" || b.prompt === "") return c.json({ error: "prompt is required" }, 400);
    const previous = idempotency.get(`${target}\n${key}`);
    if (previous) return c.json({ task_id: previous, status: tasks.get(previous)!.task.status }, 201);
    const agent = agents.get(target);
    if (!agent) return c.json({ error: `no agent ${target} is registered` }, 404);
    const task: Task = { task_id: crypto.randomUUID(), motebit_id: target, prompt: b.prompt, status: "pending", submitted_at: Date.now(), submitted_by: who.mid ?? "api_token" };
    tasks.set(task.task_id, { task, receipt: null });
    idempotency.set(`${target}\n${key}`, task.task_id);
    event("submit", target, task.task_id);
    const p = run(task, agent).finally(() => inFlight.delete(p));
    inFlight.add(p);
    return c.json({ task_id: task.task_id, status: task.status }, 201);
  });

  app.get("/agent/:id/task/:taskId", async (c) => {
    const who = await caller(c, "task:query");
    if (!who.ok) return who.res;
    const entry = tasks.get(c.req.param("taskId"));
    if (!entry || entry.task.motebit_id !== c.req.param("id")) return c.json({ error: "task not found" }, 404);
    if (who.mid !== null && who.mid !== entry.task.motebit_id && who.mid !== entry.task.submitted_by) return c.json({ error: "not a participant of this task" }, 403);
    return c.json({ task: entry.task, receipt: entry.receipt });
  });

  async function run(task: Task, agent: Agent): Promise<void> {
    task.status = "running";
    const out = await forwardTask({ endpointUrl: agent.endpoint_url, motebitId: agent.motebit_id }, { taskId: task.task_id, prompt: task.prompt }, {
      signer: o.signer,
      relayId: o.relayId,
      deviceId,
      fetch: o.fetch,
    });
    const entry = tasks.get(task.task_id)!;
    if (out.kind !== "receipt") {
      settle(task, "failed", { outcome: "refunded", reason: out.reason }, out.reason);
      return;
    }
    const problem = await receiptProblem(out.receipt, task, agent);
    if (problem !== null) {
      // Not settled as a payout: the held budget goes back, and the task records why the receipt was refused.
      settle(task, "failed", { outcome: "refused", reason: problem }, `receipt_rejected: ${problem}`);
      return;
    }
    entry.receipt = out.receipt;
    const r = out.receipt as { status: string; result?: string };
    if (r.status === "completed") settle(task, "completed", { outcome: "paid", reason: "receipt verified" });
    else settle(task, "failed", { outcome: "refunded", reason: `receipt status ${r.status}` }, `the agent's receipt says ${r.status}: ${String(r.result ?? "").slice(0, 200)}`);
  }

  function settle(task: Task, status: TaskStatus, s: Omit<Settlement, "at">, error?: string): void {
    task.status = status;
    if (error !== undefined) task.error = error;
    task.settlement = { ...s, at: Date.now() };
    event("settle", task.motebit_id, `${task.task_id} ${s.outcome}: ${s.reason}`);
    log(`relay: task ${task.task_id} ${status}; settlement: ${s.outcome} (${s.reason})`);
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

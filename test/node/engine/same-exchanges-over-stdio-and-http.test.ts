// One session engine under every transport: the same scripted exchanges (both revisions, the tasks extension,
// refusals) sent to the real CLI over stdio and over HTTP get the same answers. Only what the transport owns
// (framing, HTTP status, the session header) and what each run makes fresh (task ids, timestamps) may differ.
import { spawn, type ChildProcessByStdio } from "node:child_process";
import type { Readable, Writable } from "node:stream";
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, cleanEnv, freePort, initMotebit, REPO, startHttpServe, tempDir, type HttpServe } from "../local/helpers/local-cli.js";
import { STATELESS_VERSION, statelessHeaders, statelessMeta, TASKS } from "../../shared/stateless-request.js";

const TOKEN = "parity-test-token-0123456789abcdef";
const V = STATELESS_VERSION;

const toolsModule = `export default [
  { definition: { name: "slow_upper", description: "Upper-cases after 200 ms.", inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] }, risk: "R0_READ", execution: { taskSupport: "optional" } },
    handler: async (args) => { await new Promise((r) => setTimeout(r, 200)); return { ok: true, data: String(args.text).toUpperCase() }; } },
  { definition: { name: "only_as_task", description: "Runs only as a task.", inputSchema: { type: "object", properties: {} }, risk: "R0_READ", execution: { taskSupport: "required" } },
    handler: () => ({ ok: true, data: "ran as a task" }) },
  { definition: { name: "hold", description: "Waits until aborted.", inputSchema: { type: "object", properties: {} }, risk: "R0_READ", execution: { taskSupport: "optional" } },
    handler: (_a, { signal }) => new Promise((resolve) => { const t = setTimeout(() => resolve({ ok: true, data: "held" }), 20000); signal.addEventListener("abort", () => { clearTimeout(t); resolve({ ok: false, error: "aborted" }); }); }) },
];
`;

type Msg = { jsonrpc: "2.0"; id?: number | string; method: string; params?: Record<string, unknown> };
type Answer = Record<string, unknown> | null;

/** One transport: sends a message, resolves with its answer (null for a notification). */
interface Wire {
  send(m: Msg): Promise<Answer>;
}

const stateless = (params: Record<string, unknown> = {}, caps: Record<string, unknown> = {}) => ({ ...params, _meta: statelessMeta(caps) });

function stdioWire(child: ChildProcessByStdio<Writable, Readable, null>): Wire {
  const waiting = new Map<string, (a: Answer) => void>();
  let buf = "";
  child.stdout.on("data", (d) => {
    buf += d;
    for (let i = buf.indexOf("\n"); i >= 0; i = buf.indexOf("\n")) {
      const line = JSON.parse(buf.slice(0, i)) as Record<string, unknown>;
      buf = buf.slice(i + 1);
      if ("id" in line && !("method" in line)) waiting.get(JSON.stringify(line.id))?.(line);
    }
  });
  return {
    send(m) {
      child.stdin.write(JSON.stringify(m) + "\n");
      if (m.id === undefined) return Promise.resolve(null);
      return new Promise((resolve) => waiting.set(JSON.stringify(m.id), resolve));
    },
  };
}

function httpWire(url: string): Wire {
  let session: string | null = null;
  return {
    async send(m) {
      const isStateless = (m.params?._meta as Record<string, unknown> | undefined)?.["io.modelcontextprotocol/protocolVersion"] === V;
      const headers: Record<string, string> = { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
      if (isStateless) Object.assign(headers, statelessHeaders(m.method, m.params ?? {}));
      else if (m.method !== "initialize") {
        headers["MCP-Protocol-Version"] = "2025-11-25";
        if (session !== null) headers["Mcp-Session-Id"] = session;
      }
      const res = await fetch(`${url}/mcp`, { method: "POST", headers, body: JSON.stringify(m) });
      session = res.headers.get("Mcp-Session-Id") ?? session;
      if (m.id === undefined) {
        expect(res.status).toBe(202);
        return null;
      }
      const text = await res.text();
      // An SSE answer: its last event is the response.
      const json = res.headers.get("Content-Type")?.startsWith("text/event-stream") ? text.trim().split("\n").filter((l) => l.startsWith("data: ")).at(-1)!.slice(6) : text;
      return JSON.parse(json) as Record<string, unknown>;
    },
  };
}

/** What each run makes fresh: task ids and times. The rest must match exactly. */
function normalise(a: Answer, taskIds: Map<string, string>): unknown {
  return JSON.parse(JSON.stringify(a), (k, v) => {
    if (k === "taskId" && typeof v === "string") {
      if (!taskIds.has(v)) taskIds.set(v, `task-${taskIds.size + 1}`);
      return taskIds.get(v);
    }
    if ((k === "createdAt" || k === "lastUpdatedAt") && typeof v === "string") return "<time>";
    return v;
  });
}

async function untilStatus(w: Wire, id: number, taskId: string, want: string): Promise<Answer> {
  for (let i = 0; i < 200; i++) {
    const a = await w.send({ jsonrpc: "2.0", id, method: "tasks/get", params: stateless({ taskId }, TASKS) });
    if ((a?.result as { status?: string } | undefined)?.status === want) return a;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`task ${taskId} never reached ${want}`);
}

/** The script: every answer it gets, normalised, in order. */
async function script(w: Wire): Promise<unknown[]> {
  const ids = new Map<string, string>();
  const out: unknown[] = [];
  const say = async (m: Msg) => {
    const a = await w.send(m);
    out.push({ sent: m.method, answer: normalise(a, ids) });
    return a;
  };
  // 2025-11-25: a session.
  const init = await w.send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "parity", version: "1" } } });
  // Only the owner's tool list can change while serving (tools.listChanged): the principal's business, not the transport's.
  const { capabilities, ...rest } = (init as { result: { capabilities: Record<string, unknown> } }).result;
  out.push({ sent: "initialize", answer: { ...rest, capabilities: { ...capabilities, tools: "<per principal>" } } });
  await say({ jsonrpc: "2.0", method: "notifications/initialized" });
  await say({ jsonrpc: "2.0", id: 2, method: "ping" });
  await say({ jsonrpc: "2.0", id: 3, method: "no/such/method" });
  await say({ jsonrpc: "2.0", id: 4, method: "logging/setLevel", params: { level: "loud" } });
  await say({ jsonrpc: "2.0", id: 5, method: "tools/call", params: { name: "slow_upper", arguments: { text: "session" } } });
  // A cancellation of nothing running is ignored, on either transport.
  await say({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 99, reason: "nothing" } });

  // 2026-07-28: every request its own session.
  await say({ jsonrpc: "2.0", id: 10, method: "server/discover", params: stateless() });
  await say({ jsonrpc: "2.0", id: 11, method: "initialize", params: stateless({ protocolVersion: V, capabilities: {}, clientInfo: { name: "p", version: "1" } }) });
  await say({ jsonrpc: "2.0", id: 12, method: "tools/call", params: stateless({ name: "slow_upper", arguments: { text: "no tasks" } }) });
  await say({ jsonrpc: "2.0", id: 13, method: "tools/call", params: stateless({ name: "only_as_task", arguments: {} }) });
  await say({ jsonrpc: "2.0", id: 14, method: "tasks/get", params: stateless({ taskId: "nope" }) });
  await say({ jsonrpc: "2.0", id: 15, method: "tasks/get", params: stateless({ taskId: "nope" }, TASKS) });
  await say({ jsonrpc: "2.0", id: 16, method: "resources/read", params: stateless({ uri: "nowhere://at-all" }) });

  // The tasks extension: a handle at once, then polling until the result.
  const handle = await say({ jsonrpc: "2.0", id: 20, method: "tools/call", params: stateless({ name: "slow_upper", arguments: { text: "as a task" } }, TASKS) });
  const taskId = (handle as { result: { taskId: string } }).result.taskId;
  out.push({ sent: "tasks/get until completed", answer: normalise(await untilStatus(w, 21, taskId, "completed"), ids) });
  await say({ jsonrpc: "2.0", id: 22, method: "tasks/update", params: stateless({ taskId, inputResponses: {} }, TASKS) });
  const only = await say({ jsonrpc: "2.0", id: 23, method: "tools/call", params: stateless({ name: "only_as_task", arguments: {} }, TASKS) });
  out.push({ sent: "tasks/get until completed", answer: normalise(await untilStatus(w, 24, (only as { result: { taskId: string } }).result.taskId, "completed"), ids) });
  // tasks/cancel ends a running task; its status says so from then on.
  const held = await say({ jsonrpc: "2.0", id: 25, method: "tools/call", params: stateless({ name: "hold", arguments: {} }, TASKS) });
  const heldId = (held as { result: { taskId: string } }).result.taskId;
  await say({ jsonrpc: "2.0", id: 26, method: "tasks/cancel", params: stateless({ taskId: heldId }, TASKS) });
  out.push({ sent: "tasks/get after cancel", answer: normalise(await untilStatus(w, 27, heldId, "cancelled"), ids) });
  return out;
}

const tmp = tempDir();
let stdio: ChildProcessByStdio<Writable, Readable, null>;
let http: HttpServe;

beforeAll(async () => {
  const identity = await initMotebit(tmp.dir, ["--type", "service", "--name", "parity"]);
  const tools = join(tmp.dir, "tools.mjs");
  writeFileSync(tools, toolsModule);
  const config = join(tmp.dir, "motebit.json");
  writeFileSync(config, JSON.stringify({ authToken: TOKEN }));
  chmodSync(config, 0o600);
  const args = ["--identity", identity, "--tools", tools, "--direct"];
  // Each host its own data directory: they are two hosts of the same motebit, not two writers of one database.
  stdio = spawn(process.execPath, [BIN, "serve", ...args, "--data-dir", join(tmp.dir, "stdio-data")], { cwd: REPO, env: cleanEnv(), stdio: ["pipe", "pipe", "ignore"] });
  http = await startHttpServe([...args, "--config", config, "--data-dir", join(tmp.dir, "http-data"), "--serve-port", String(await freePort())]);
}, 60_000);

afterAll(async () => {
  stdio?.kill();
  await http?.stop();
  tmp.cleanup();
});

describe("the same exchanges over stdio and HTTP", () => {
  it("get the same answers, tasks included", async () => {
    const [overStdio, overHttp] = await Promise.all([script(stdioWire(stdio)), script(httpWire(http.url))]);
    expect(overStdio).toEqual(overHttp);
    // Not vacuous: the script reached the tasks it set out to run.
    expect(JSON.stringify(overStdio)).toContain("AS A TASK");
    expect(JSON.stringify(overStdio)).toContain("ran as a task");
  }, 60_000);
});

// The per-caller starvation check (issue 19 item 4): one caller (the static token, as in the outside attack) takes
// waiting work until the host refuses it more; another caller must still be served. Tasks on both hosts; the
// client's elicitation where a tool asks (the Node host's evidence tools; the edge's tools never ask).
import { post, tokenFor, type Peer } from "./client.js";
import type { Host } from "./hosts.js";
import type { Outcome } from "./scenarios.js";

const V = "2026-07-28";
const TASKS = { extensions: { "io.modelcontextprotocol/tasks": {} } };
/** Past this many without a refusal, the caller has no limit: a failure. */
const TRIES = 2_000;

type Rpc = { result?: Record<string, unknown> & { content?: { text: string }[] }; error?: { code: number; message: string }; method?: string };

async function statelessCall(host: Host, auth: string, method: string, params: Record<string, unknown>): Promise<Rpc> {
  const name = String(method === "tools/call" ? params.name : params.taskId);
  const res = await fetch(`${host.url}/mcp`, {
    method: "POST",
    headers: { Authorization: auth, "Content-Type": "application/json", Accept: "application/json", "MCP-Protocol-Version": V, "Mcp-Method": method, "Mcp-Name": name },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: { "io.modelcontextprotocol/protocolVersion": V, "io.modelcontextprotocol/clientCapabilities": TASKS } } }),
    signal: AbortSignal.timeout(30_000),
  });
  return (await res.json()) as Rpc;
}

const longTask = (host: Host, auth: string) =>
  statelessCall(host, auth, "tools/call", { name: "motebit_task", arguments: { prompt: "60000", required_capabilities: ["slow"] } });

/** Calls ask_user in a session over SSE; resolves with the first message (the question, or a result when it could not ask). */
async function askUser(host: Host, auth: string, session: string, id: number, signal: AbortSignal): Promise<Rpc> {
  const res = await fetch(`${host.url}/mcp`, {
    method: "POST",
    headers: { Authorization: auth, "Content-Type": "application/json", Accept: "application/json, text/event-stream", "Mcp-Session-Id": session, "MCP-Protocol-Version": "2025-11-25" },
    body: JSON.stringify({ jsonrpc: "2.0", id, method: "tools/call", params: { name: "ask_user", arguments: {} } }),
    signal,
  });
  if (!res.headers.get("Content-Type")?.startsWith("text/event-stream")) return (await res.json()) as Rpc;
  const reader = res.body!.getReader();
  let buf = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error("the answer ended before its first message");
    buf += new TextDecoder().decode(value);
    const m = /data: (.*)\n\n/.exec(buf);
    if (m) return JSON.parse(m[1]) as Rpc;
  }
}

async function openSession(host: Host, auth: string): Promise<string> {
  const a = await post(host.url, auth, {
    jsonrpc: "2.0",
    id: 0,
    method: "initialize",
    params: { protocolVersion: "2025-11-25", capabilities: { elicitation: {} }, clientInfo: { name: "evidence", version: "1" } },
  });
  if (!a.session) throw new Error(`initialize: HTTP ${a.status} ${a.body}`);
  return a.session;
}

export async function starvation(host: Host, staticAuth: string, other: Peer, serverId: string, o: { elicitation: boolean }): Promise<Outcome> {
  const failures: string[] = [];
  const lines: string[] = [];

  // Tasks: the static caller starts long tasks until refused; the other caller's task must still start.
  const mine: string[] = [];
  let refusal: string | null = null;
  while (mine.length < TRIES && refusal === null) {
    const r = await longTask(host, staticAuth);
    if (r.result?.resultType === "task") mine.push(r.result.taskId as string);
    else refusal = r.error?.message ?? JSON.stringify(r);
  }
  const theirs = await longTask(host, await tokenFor(other, serverId));
  const served = theirs.result?.resultType === "task";
  lines.push(`${host.name} starvation, tasks: one caller refused after ${mine.length} running (${refusal ?? "never refused"}); another caller's task ${served ? "started" : `refused: ${theirs.error?.message}`}`);
  if (refusal === null) failures.push(`starvation: one caller started ${TRIES} tasks without a limit`);
  if (!served) failures.push(`starvation: a caller was denied a task while another was at its limit (${theirs.error?.message})`);
  for (const taskId of [...mine, theirs.result?.taskId as string].filter(Boolean)) {
    await statelessCall(host, taskId === theirs.result?.taskId ? await tokenFor(other, serverId) : staticAuth, "tasks/cancel", { taskId });
  }

  if (!o.elicitation) {
    lines.push(`${host.name} starvation, elicitation: not checked (none of this host's tools asks the client)`);
    return { lines, failures };
  }
  // Elicitation: the static caller leaves questions unanswered until refused; the other caller must still be asked;
  // once the static caller drops its connections, its waits are gone.
  const session = await openSession(host, staticAuth);
  const drop = new AbortController();
  let waiting = 0;
  let askRefusal: string | null = null;
  while (waiting < TRIES && askRefusal === null) {
    const first = await askUser(host, staticAuth, session, waiting + 1, drop.signal);
    if (first.method === "elicitation/create") waiting++;
    else askRefusal = first.result?.content?.[0]?.text.split("\n")[0] ?? JSON.stringify(first);
  }
  const otherSession = await openSession(host, await tokenFor(other, serverId));
  const otherAsk = new AbortController();
  const otherFirst = await askUser(host, await tokenFor(other, serverId), otherSession, 1, otherAsk.signal);
  otherAsk.abort();
  const otherAsked = otherFirst.method === "elicitation/create";
  drop.abort();
  const started = Date.now();
  let freed = false;
  while (!freed && Date.now() - started < 10_000) {
    const again = new AbortController();
    freed = (await askUser(host, staticAuth, session, 100_000 + Date.now(), again.signal)).method === "elicitation/create";
    again.abort();
    if (!freed) await new Promise((r) => setTimeout(r, 100));
  }
  lines.push(
    `${host.name} starvation, elicitation: one caller refused after ${waiting} waiting (${askRefusal ?? "never refused"}); another caller ${otherAsked ? "was asked" : "was not asked"}; ` +
      `after dropping its connections the first caller was ${freed ? `asked again within ${Date.now() - started} ms` : "still refused after 10 s"}`,
  );
  if (askRefusal === null) failures.push(`starvation: one caller left ${TRIES} questions waiting without a limit`);
  if (!otherAsked) failures.push(`starvation: a caller could not be asked while another was at its limit (${JSON.stringify(otherFirst)})`);
  if (!freed) failures.push("starvation: dropped connections did not free their waits within 10 s");
  return { lines, failures };
}

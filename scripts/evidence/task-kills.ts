// One task, one run, one receipt under SIGKILL (issue 30): callers keep creating MCP tasks (motebit_task as a
// 2026-07-28 task over logged_step, which logs each execution) while the Node host is killed again and again; then
// the host runs until every task has ended. Counted from the run log and the database: executions per task,
// receipts per task, the keys that signed them.
// The same for synchronous calls (issue 42 item 9, syncTaskKills): motebit_task answered in place, no tasks
// extension; a call a kill cut is concluded by the next start, and every admitted call has exactly one receipt.
import { readFileSync, rmSync } from "node:fs";
import { sha256HexSync, verifyReceipt, type ExecutionReceipt } from "../../src/protocol/index.js";
import { tokenFor, type Peer } from "./client.js";
import type { Host } from "./hosts.js";
import type { Outcome } from "./scenarios.js";
import { logAgreement } from "./log-agreement.js";

const V = "2026-07-28";
const TASKS = { extensions: { "io.modelcontextprotocol/tasks": {} } };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** motebit_task over logged_step: as an MCP task (`tasks`: answered with a handle) or answered in place. */
async function callTask(host: Host, auth: string, prompt: string, tasks: boolean): Promise<{ resultType?: string; taskId?: string; content?: { text: string }[] } | undefined> {
  const meta = { "io.modelcontextprotocol/protocolVersion": V, "io.modelcontextprotocol/clientCapabilities": tasks ? TASKS : {} };
  const res = await fetch(`${host.url}/mcp`, {
    method: "POST",
    headers: { Authorization: auth, "Content-Type": "application/json", Accept: "application/json", "MCP-Protocol-Version": V, "Mcp-Method": "tools/call", "Mcp-Name": "motebit_task" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "motebit_task", arguments: { prompt, required_capabilities: ["logged_step"] }, _meta: meta } }),
    signal: AbortSignal.timeout(30_000),
  });
  return ((await res.json()) as { result?: { resultType?: string; taskId?: string; content?: { text: string }[] } }).result;
}

async function createTask(host: Host, auth: string, prompt: string): Promise<string | null> {
  const result = await callTask(host, auth, prompt, true);
  return result?.resultType === "task" ? result.taskId! : null;
}

/** The receipt a synchronous call was answered with (its text before the motebit's signature line), or null. */
function answeredReceipt(result: { content?: { text: string }[] } | undefined): ExecutionReceipt | null {
  const text = result?.content?.[0]?.text;
  if (text === undefined || !text.startsWith("{")) return null;
  return JSON.parse(text.slice(0, text.lastIndexOf("\n[motebit:"))) as ExecutionReceipt;
}

/** The run log's lines of `kind` ("start", "done"), counted per prompt. */
function logCounts(runLog: string): (kind: string) => Map<string, number> {
  const log = readFileSync(runLog, "utf8").split("\n").filter(Boolean);
  rmSync(runLog, { force: true });
  return (kind) => {
    const m = new Map<string, number>();
    for (const l of log) if (l.startsWith(`${kind} `)) m.set(l.slice(kind.length + 1), (m.get(l.slice(kind.length + 1)) ?? 0) + 1);
    return m;
  };
}

export async function taskKills(
  host: Host,
  peers: Peer[],
  serverId: string,
  o: { kills: number; tasks: number; minMs: number; maxMs: number; random: () => number; runLog: string },
): Promise<Outcome> {
  const failures: string[] = [];
  const created = new Map<string, string>(); // taskId → prompt
  let refused = 0;
  const submit = (stop: () => boolean, round: string) =>
    Promise.all(
      peers.map(async (peer, w) => {
        for (let i = 0; !stop(); i++) {
          const prompt = `${round}.${w}.${i}`;
          try {
            const id = await createTask(host, await tokenFor(peer, serverId), prompt);
            if (id === null) (refused++, await sleep(50));
            else created.set(id, prompt);
          } catch {
            await sleep(20); // the host went away under this request
          }
        }
      }),
    );
  for (let k = 0; k < o.kills; k++) {
    let stopping = false;
    const writers = submit(() => stopping, `k${k}`);
    await sleep(o.minMs + o.random() * (o.maxMs - o.minMs));
    await host.kill();
    stopping = true;
    await writers;
    await host.start();
  }
  // Up to the task count, with no more kills; then every task ends (killed runs resume once their leases lapse).
  await submit(() => created.size >= o.tasks, "last");
  const deadline = Date.now() + 120_000;
  let open = Infinity;
  while (Date.now() < deadline) {
    open = host.query<{ n: number }>("SELECT COUNT(*) AS n FROM mcp_tasks WHERE status IN ('working', 'input_required')")[0].n;
    if (open === 0) break;
    await sleep(500);
  }
  await host.stop();
  if (open !== 0) failures.push(`task kills: ${open} tasks still open after 120 s`);

  const count = logCounts(o.runLog);
  const starts = count("start");
  const dones = count("done");
  const rows = host.query<{ run_id: string; json: string }>("SELECT run_id, json FROM receipts WHERE run_id IS NOT NULL");
  const perTask = new Map<string, number>();
  for (const r of rows) perTask.set(r.run_id, (perTask.get(r.run_id) ?? 0) + 1);
  const receipts = rows.map((r) => JSON.parse(r.json) as ExecutionReceipt);
  const keys = new Set(receipts.map((r) => r.public_key));
  const valid = (await Promise.all(receipts.map((r) => verifyReceipt(r)))).filter((v) => v.valid).length;
  const mine = [...created.keys()];
  const withoutReceipt = mine.filter((id) => !perTask.has(id)).length;
  const dupReceipts = [...perTask.values()].filter((n) => n > 1).length;
  const prompts = [...created.values()];
  const dupRuns = prompts.filter((p) => (dones.get(p) ?? 0) > 1).length;
  const rerunAfterKill = prompts.filter((p) => (starts.get(p) ?? 0) > 1 && (dones.get(p) ?? 0) <= 1).length;
  const statuses = new Map<string, number>();
  for (const r of receipts) statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);

  if (mine.length < o.tasks) failures.push(`task kills: only ${mine.length} tasks created (wanted ${o.tasks})`);
  if (dupRuns) failures.push(`task kills: ${dupRuns} tasks executed to the end more than once`);
  if (dupReceipts) failures.push(`task kills: ${dupReceipts} tasks with more than one receipt`);
  if (withoutReceipt) failures.push(`task kills: ${withoutReceipt} tasks ended without a receipt`);
  if (keys.size !== 1) failures.push(`task kills: receipts signed by ${keys.size} keys`);
  if (valid !== receipts.length) failures.push(`task kills: ${receipts.length - valid} receipts do not verify`);
  // The transparency log: no receipt outside it, no leaf without its receipt, after every kill.
  const inLog = logAgreement(host.query);
  failures.push(...inLog.failures.map((f) => `task kills: ${f}`));
  return {
    lines: [
      `${host.name} task kills: ${o.kills} SIGKILLs, ${mine.length} tasks created (${refused} refused at a limit, retried)`,
      `${host.name} task kills: executions to the end per task: max ${Math.max(0, ...prompts.map((p) => dones.get(p) ?? 0))}, tasks run to the end twice: ${dupRuns}; restarted after a kill cut their run: ${rerunAfterKill}`,
      `${host.name} task kills: receipts per task: max ${Math.max(0, ...perTask.values())}, duplicates ${dupReceipts}, tasks without one ${withoutReceipt}; statuses ${[...statuses].map(([s, n]) => `${s} ${n}`).join(", ")}`,
      `${host.name} task kills: signing keys ${keys.size}, receipts that verify ${valid}/${receipts.length}`,
      ...inLog.lines.map((l) => `${host.name} task kills: ${l}`),
    ],
    failures,
  };
}

/**
 * Synchronous motebit_task calls (no tasks extension) through `kills` SIGKILLs of the Node host, up to `calls` calls;
 * then the host runs until every kept call is concluded (a killed host's leases lapse first). Every call whose tool
 * started, and every call answered with a receipt, must have exactly one receipt in the ledger (matched by its
 * prompt's hash), the answered one the very receipt stored; none two; none left kept.
 */
export async function syncTaskKills(
  host: Host,
  peers: Peer[],
  serverId: string,
  o: { kills: number; calls: number; minMs: number; maxMs: number; random: () => number; runLog: string },
): Promise<Outcome> {
  const failures: string[] = [];
  const sent = new Set<string>();
  const answered = new Map<string, ExecutionReceipt>(); // prompt → the receipt its caller got
  let cut = 0;
  let refused = 0;
  const submit = (stop: () => boolean, round: string) =>
    Promise.all(
      peers.map(async (peer, w) => {
        for (let i = 0; !stop(); i++) {
          const prompt = `sync.${round}.${w}.${i}`;
          sent.add(prompt);
          try {
            const receipt = answeredReceipt(await callTask(host, await tokenFor(peer, serverId), prompt, false));
            if (receipt === null) (refused++, await sleep(50));
            else answered.set(prompt, receipt);
          } catch {
            cut++; // the host went away under this call
            await sleep(20);
          }
        }
      }),
    );
  for (let k = 0; k < o.kills; k++) {
    let stopping = false;
    const callers = submit(() => stopping, `k${k}`);
    await sleep(o.minMs + o.random() * (o.maxMs - o.minMs));
    await host.kill();
    stopping = true;
    await callers;
    await host.start();
  }
  await submit(() => sent.size >= o.calls, "last");
  const deadline = Date.now() + 120_000;
  let open = Infinity;
  while (Date.now() < deadline) {
    open = host.query<{ n: number }>("SELECT COUNT(*) AS n FROM mcp_tasks WHERE admission IS NOT NULL")[0].n;
    if (open === 0) break;
    await sleep(500);
  }
  await host.stop();
  if (open !== 0) failures.push(`sync task kills: ${open} calls still kept after 120 s`);

  const count = logCounts(o.runLog);
  const starts = count("start");
  const dones = count("done");
  const byHash = new Map([...sent].map((p) => [sha256HexSync(p), p]));
  const rows = host.query<{ run_id: string | null; json: string }>("SELECT run_id, json FROM receipts");
  const perCall = new Map<string, ExecutionReceipt[]>();
  for (const r of rows) {
    const receipt = JSON.parse(r.json) as ExecutionReceipt;
    const prompt = byHash.get(receipt.prompt_hash);
    if (prompt === undefined) continue;
    if (r.run_id === null) failures.push(`sync task kills: the receipt for ${prompt} is bound to no kept call`);
    perCall.set(prompt, [...(perCall.get(prompt) ?? []), receipt]);
  }
  const receipts = [...perCall.values()].flat();
  const duplicates = [...perCall.values()].filter((l) => l.length > 1).length;
  const startedWithout = [...starts.keys()].filter((p) => byHash.has(sha256HexSync(p)) && !perCall.has(p)).length;
  const answeredWithout = [...answered].filter(([p, r]) => perCall.get(p)?.[0]?.task_id !== r.task_id).length;
  // Calls a kill cut: concluded by the next start, with the kept outcome or as interrupted.
  const concluded = [...perCall].filter(([p]) => !answered.has(p)).map(([p, l]) => ({ p, r: l[0] }));
  const doneButInterrupted = concluded.filter(({ p, r }) => (dones.get(p) ?? 0) > 0 && r.status !== "completed").length;
  const reran = [...sent].filter((p) => (starts.get(p) ?? 0) > 1).length;
  const keys = new Set(receipts.map((r) => r.public_key));
  const valid = (await Promise.all(receipts.map((r) => verifyReceipt(r)))).filter((v) => v.valid).length;
  const statuses = new Map<string, number>();
  for (const { r } of concluded) statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);

  if (sent.size < o.calls) failures.push(`sync task kills: only ${sent.size} calls sent (wanted ${o.calls})`);
  if (duplicates) failures.push(`sync task kills: ${duplicates} calls with more than one receipt`);
  if (startedWithout) failures.push(`sync task kills: ${startedWithout} calls whose tool started have no receipt`);
  if (answeredWithout) failures.push(`sync task kills: ${answeredWithout} calls answered with a receipt the ledger does not hold`);
  if (reran) failures.push(`sync task kills: ${reran} calls whose tool ran twice`);
  if (keys.size > 1) failures.push(`sync task kills: receipts signed by ${keys.size} keys`);
  if (valid !== receipts.length) failures.push(`sync task kills: ${receipts.length - valid} receipts do not verify`);
  const inLog = logAgreement(host.query);
  failures.push(...inLog.failures.map((f) => `sync task kills: ${f}`));
  return {
    lines: [
      `${host.name} sync task kills: ${o.kills} SIGKILLs, ${sent.size} synchronous calls sent, ${answered.size} answered with a receipt, ${cut} cut by a kill, ${refused} refused`,
      `${host.name} sync task kills: receipts per admitted call: max ${Math.max(0, ...[...perCall.values()].map((l) => l.length))}, duplicates ${duplicates}, tool started without a receipt ${startedWithout}, answered but not in the ledger ${answeredWithout}, tools run twice ${reran}`,
      `${host.name} sync task kills: concluded after a kill ${concluded.length} (${[...statuses].map(([s, n]) => `${s} ${n}`).join(", ") || "none"}); tool done but signed as interrupted ${doneButInterrupted}`,
      `${host.name} sync task kills: signing keys ${keys.size}, receipts that verify ${valid}/${receipts.length}`,
      ...inLog.lines.map((l) => `${host.name} sync task kills: ${l}`),
    ],
    failures,
  };
}

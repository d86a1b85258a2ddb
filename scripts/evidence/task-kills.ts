// One task, one run, one receipt under SIGKILL (issue 30): callers keep creating MCP tasks (motebit_task as a
// 2026-07-28 task over logged_step, which logs each execution) while the Node host is killed again and again; then
// the host runs until every task has ended. Counted from the run log and the database: executions per task,
// receipts per task, the keys that signed them.
import { readFileSync, rmSync } from "node:fs";
import { verifyReceipt, type ExecutionReceipt } from "../../src/protocol/index.js";
import { tokenFor, type Peer } from "./client.js";
import type { Host } from "./hosts.js";
import type { Outcome } from "./scenarios.js";
import { logAgreement } from "./log-agreement.js";

const V = "2026-07-28";
const META = { "io.modelcontextprotocol/protocolVersion": V, "io.modelcontextprotocol/clientCapabilities": { extensions: { "io.modelcontextprotocol/tasks": {} } } };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function createTask(host: Host, auth: string, prompt: string): Promise<string | null> {
  const res = await fetch(`${host.url}/mcp`, {
    method: "POST",
    headers: { Authorization: auth, "Content-Type": "application/json", Accept: "application/json", "MCP-Protocol-Version": V, "Mcp-Method": "tools/call", "Mcp-Name": "motebit_task" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "motebit_task", arguments: { prompt, required_capabilities: ["logged_step"] }, _meta: META } }),
    signal: AbortSignal.timeout(10_000),
  });
  const body = (await res.json()) as { result?: { resultType?: string; taskId?: string } };
  return body.result?.resultType === "task" ? body.result.taskId! : null;
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

  const log = readFileSync(o.runLog, "utf8").split("\n").filter(Boolean);
  rmSync(o.runLog, { force: true });
  const count = (kind: string) => {
    const m = new Map<string, number>();
    for (const l of log) if (l.startsWith(`${kind} `)) m.set(l.slice(kind.length + 1), (m.get(l.slice(kind.length + 1)) ?? 0) + 1);
    return m;
  };
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

// One task, one run, one receipt through the operator's changes at the edge (issue 30): each round makes a fleet
// motebit, starts tasks over logged_step (which logs each execution to the Worker's console), half as 2026-07-28 MCP
// tasks (polled with tasks/get) and half answered in place, and while they run either PATCHes the motebit or
// DELETEs it and makes the name again. Counted: executions per task (from the log), receipts per task (what the
// callers got and what every motebit's database holds, one per distinct signature), the key that signed each
// against the key of the incarnation the task was started at, and every -32603.
import { verifyReceipt, type ExecutionReceipt } from "../../src/protocol/index.js";
import type { EdgeHost } from "./hosts.js";
import { RUN_LOG_PREFIX } from "./logged-step.js";
import type { Outcome } from "./scenarios.js";

const V = "2026-07-28";
const TASKS = { extensions: { "io.modelcontextprotocol/tasks": {} } };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Rpc = { result?: Record<string, unknown>; error?: { code: number; message: string } };

interface Started {
  prompt: string;
  name: string;
  /** The public key of the incarnation the task was started at. */
  key: string;
  kind: "mcp task" | "in place";
  round: "patch" | "delete";
}

function fleet(host: EdgeHost, token: string, method: string, route: string, body?: unknown): Promise<Response> {
  return fetch(`${host.url}/fleet/motebits${route}`, {
    method,
    headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(30_000),
  });
}

async function create(host: EdgeHost, token: string, name: string, authToken: string): Promise<string> {
  const res = await fleet(host, token, "POST", "", { name, auth_token: authToken });
  if (res.status !== 201) throw new Error(`fleet create ${name}: HTTP ${res.status} ${await res.text()}`);
  return ((await res.json()) as { public_key: string }).public_key;
}

async function mcp(host: EdgeHost, name: string, auth: string, method: string, params: Record<string, unknown>, caps: Record<string, unknown>): Promise<Rpc> {
  const mcpName = method === "tools/call" ? params.name : params.taskId;
  const res = await fetch(`${host.url}/m/${name}/mcp`, {
    method: "POST",
    headers: { Authorization: `Bearer ${auth}`, "Content-Type": "application/json", Accept: "application/json", "MCP-Protocol-Version": V, "Mcp-Method": method, "Mcp-Name": String(mcpName) },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { ...params, _meta: { "io.modelcontextprotocol/protocolVersion": V, "io.modelcontextprotocol/clientCapabilities": caps } } }),
    signal: AbortSignal.timeout(30_000),
  });
  return (await res.json()) as Rpc;
}

const receiptIn = (result: Record<string, unknown>): ExecutionReceipt => {
  const text = (result.content as { text: string }[])[0].text;
  const end = text.lastIndexOf("\n[motebit:");
  return JSON.parse(end === -1 ? text : text.slice(0, end)) as ExecutionReceipt;
};

export async function fleetRounds(host: EdgeHost, fleetToken: string, o: { rounds: number; tasksPerRound: number; random: () => number }): Promise<Outcome> {
  const failures: string[] = [];
  const started: Started[] = [];
  const got = new Map<string, ExecutionReceipt>(); // prompt → the receipt its caller got
  const internal: string[] = [];
  const retiredAnswers: string[] = [];
  const callArgs = (prompt: string) => ({ name: "motebit_task", arguments: { prompt, required_capabilities: ["logged_step"] } });
  for (let r = 0; r < o.rounds; r++) {
    const round = r % 2 === 0 ? "patch" : "delete";
    const name = `evidence-${round}-${r}`;
    const auth = `evidence-fleet-caller-${r}-token`;
    const key = await create(host, fleetToken, name, auth);
    const answers: Promise<void>[] = [];
    const handles: { prompt: string; taskId: string }[] = [];
    for (let i = 0; i < o.tasksPerRound; i++) {
      const prompt = `r${r}.${i}`;
      const kind = i % 2 === 0 ? "mcp task" : "in place";
      started.push({ prompt, name, key, kind, round });
      if (kind === "mcp task") {
        const a = await mcp(host, name, auth, "tools/call", callArgs(prompt), TASKS);
        if (a.error) (a.error.code === -32603 ? internal : failures).push(`${prompt}: create answered ${a.error.code} ${a.error.message}`);
        else handles.push({ prompt, taskId: a.result!.taskId as string });
      } else {
        answers.push(
          mcp(host, name, auth, "tools/call", callArgs(prompt), {}).then((a) => {
            if (a.error) (a.error.code === -32603 ? internal : failures).push(`${prompt}: answered ${a.error.code} ${a.error.message}`);
            else got.set(prompt, receiptIn(a.result!));
          }),
        );
      }
    }
    // While the runs go on (each tool works 100-600 ms): the operator's change.
    await sleep(100 + o.random() * 300);
    if (round === "patch") {
      const res = await fleet(host, fleetToken, "PATCH", `/${name}`, { tools: null, auth_token: auth });
      if (res.status !== 200) failures.push(`${name}: PATCH answered ${res.status} ${await res.text()}`);
    } else {
      const res = await fleet(host, fleetToken, "DELETE", `/${name}`);
      if (res.status !== 200) failures.push(`${name}: DELETE answered ${res.status} ${await res.text()}`);
      await create(host, fleetToken, name, auth);
    }
    await Promise.all(answers);
    for (const h of handles) {
      for (let i = 0; ; i++) {
        const a = await mcp(host, name, auth, "tasks/get", { taskId: h.taskId }, TASKS);
        if (a.error) {
          if (a.error.code === -32603) internal.push(`${h.prompt}: tasks/get answered -32603 ${a.error.message}`);
          else if (round === "delete" && /retired/.test(a.error.message)) retiredAnswers.push(a.error.message);
          else failures.push(`${h.prompt}: tasks/get answered ${a.error.code} ${a.error.message}`);
          break;
        }
        const status = a.result!.status as string;
        if (status !== "working" && status !== "input_required") {
          got.set(h.prompt, receiptIn(a.result!.result as Record<string, unknown>));
          break;
        }
        if (i > 200) {
          failures.push(`${h.prompt}: still ${status} after 200 polls`);
          break;
        }
        await sleep(100);
      }
    }
  }

  const log = host.output().split("\n").flatMap((l) => {
    const at = l.indexOf(RUN_LOG_PREFIX);
    // eslint-disable-next-line no-control-regex
    return at === -1 ? [] : [l.slice(at + RUN_LOG_PREFIX.length).replace(/\u001b\[[0-9;]*m/g, "").trim()];
  });
  await host.stop();
  const count = (kind: string) => {
    const m = new Map<string, number>();
    for (const l of log) if (l.startsWith(`${kind} `)) m.set(l.slice(kind.length + 1), (m.get(l.slice(kind.length + 1)) ?? 0) + 1);
    return m;
  };
  const starts = count("start");

  // Receipts per task: what the callers got and what the databases hold, one per distinct signature.
  const stored = host.queryAll<{ json: string }>("SELECT json FROM receipts").map((r) => JSON.parse(r.json) as ExecutionReceipt);
  const byPrompt = new Map<string, Map<string, ExecutionReceipt>>();
  // A stored receipt belongs to the task whose caller got the same task_id, or whose prompt its result names.
  const promptByTaskId = new Map([...got].map(([prompt, rc]) => [rc.task_id, prompt]));
  const promptOf = (rc: ExecutionReceipt) => promptByTaskId.get(rc.task_id) ?? /^did (r\d+\.\d+)$/.exec(String(rc.result))?.[1];
  const add = (prompt: string, rc: ExecutionReceipt) => (byPrompt.get(prompt) ?? byPrompt.set(prompt, new Map()).get(prompt)!).set(rc.signature, rc);
  for (const [prompt, rc] of got) add(prompt, rc);
  const storedUnmatched = stored.filter((rc) => {
    const p = promptOf(rc);
    if (p !== undefined) add(p, rc);
    return p === undefined;
  }).length;

  let wrongKey = 0;
  let invalid = 0;
  let dupReceipts = 0;
  let dupRuns = 0;
  const statuses = new Map<string, number>();
  for (const s of started) {
    if ((starts.get(s.prompt) ?? 0) > 1) dupRuns++;
    const rcs = [...(byPrompt.get(s.prompt)?.values() ?? [])];
    if (rcs.length > 1) dupReceipts++;
    for (const rc of rcs) {
      if (rc.public_key !== s.key) wrongKey++;
      if (!(await verifyReceipt(rc)).valid) invalid++;
      const label = `${s.round} ${s.kind} ${rc.status}`;
      statuses.set(label, (statuses.get(label) ?? 0) + 1);
    }
  }
  const receiptsPerTask = started.map((s) => byPrompt.get(s.prompt)?.size ?? 0);
  const withoutReceipt = started.filter((s, i) => receiptsPerTask[i] === 0);
  // A retired incarnation's MCP task has no receipt its caller can fetch (its writes are fenced); every other task has one.
  const missing = withoutReceipt.filter((s) => !(s.round === "delete" && s.kind === "mcp task")).length;
  const keys = new Set([...byPrompt.values()].flatMap((m) => [...m.values()].map((rc) => rc.public_key)));
  const maxStarts = Math.max(0, ...started.map((s) => starts.get(s.prompt) ?? 0));

  if (dupRuns) failures.push(`fleet rounds: ${dupRuns} tasks executed more than once`);
  if (dupReceipts) failures.push(`fleet rounds: ${dupReceipts} tasks with more than one receipt`);
  if (missing) failures.push(`fleet rounds: ${missing} tasks without a receipt`);
  if (wrongKey) failures.push(`fleet rounds: ${wrongKey} receipts not signed by the key of the motebit that ran the task`);
  if (invalid) failures.push(`fleet rounds: ${invalid} receipts do not verify`);
  if (internal.length) failures.push(`fleet rounds: ${internal.length} answers were -32603 (${internal[0]})`);
  if (storedUnmatched) failures.push(`fleet rounds: ${storedUnmatched} stored receipts of no task of this run`);
  if (starts.size === 0) failures.push("fleet rounds: the run log is empty (the Worker's console was not captured)");
  const patches = Math.ceil(o.rounds / 2);
  return {
    lines: [
      `${host.name} fleet rounds: ${o.rounds} rounds (${patches} PATCH, ${o.rounds - patches} DELETE + re-create) during runs, ${started.length} tasks (half MCP tasks, half answered in place)`,
      `${host.name} fleet rounds: executions per task: max ${maxStarts}, tasks executed twice: ${dupRuns}; tasks a retirement cut before their tool started: ${started.filter((s) => !starts.has(s.prompt)).length}`,
      `${host.name} fleet rounds: receipts per task: max ${Math.max(0, ...receiptsPerTask)}, duplicates ${dupReceipts}, without one ${withoutReceipt.length} (retired MCP tasks, whose tasks/get names the retirement: ${retiredAnswers.length}); ${[...statuses].map(([k, n]) => `${k} ${n}`).join(", ")}`,
      `${host.name} fleet rounds: signing keys ${keys.size} over ${o.rounds + (o.rounds - patches)} incarnations, receipts signed by a key other than their incarnation's ${wrongKey}, not verifying ${invalid}; -32603 answers ${internal.length}`,
    ],
    failures,
  };
}

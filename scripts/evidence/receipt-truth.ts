// Receipt truth under a hostile model: a host in AI mode whose model (scripted, Anthropic Messages API on loopback)
// reuses tool_use ids across responses and within one, names tools of other principals (a localOnly tool, motebit_*),
// invents tools and sends bad arguments. Tasks run one after another, so the audit log splits into one segment per
// task (each ends with its motebit_task row); every receipt's tools_used must equal its segment's executed tools
// (outcome allowed or error), in order, and every receipt must verify.
import { verifyReceipt, type ExecutionReceipt } from "../../src/protocol/index.js";
import type { ModelTurn, ScriptedModelServer } from "../../test/doubles/model-server.js";
import { INITIALIZE, post, resultText, toolCall } from "./client.js";
import type { Host } from "./hosts.js";
import type { Outcome } from "./scenarios.js";

const call = (name: string, input: Record<string, unknown>, id?: string) => ({ name, input, ...(id !== undefined && { id }) });

/** One hostile script per kind; tasks cycle through them. */
export const HOSTILE_SCRIPTS: { kind: string; turns: ModelTurn[] }[] = [
  { kind: "id reused across responses", turns: [{ tools: [call("echo", { text: "a" }, "dup1")] }, { tools: [call("word_count", { text: "a b" }, "dup1")] }, "done"] },
  { kind: "id reused for a refused call", turns: [{ tools: [call("echo", { text: "a" }, "dup2")] }, { tools: [call("echo", { text: 5 }, "dup2")] }, "done"] },
  { kind: "id reused within one response", turns: [{ tools: [call("echo", { text: "1" }, "x"), call("echo", { text: "2" }, "x")] }, "done"] },
  { kind: "id reused within one response, one refused", turns: [{ tools: [call("echo", { text: "1" }, "y"), call("read_note", { path: "diary" }, "y")] }, "done"] },
  { kind: "tools of other principals", turns: [{ tools: [call("read_note", { path: "diary" }), call("motebit_remember", { content: "x" }), call("echo", { text: "ok" })] }, "done"] },
  { kind: "invented tool, bad arguments", turns: [{ tools: [call("invented_tool", {}), call("echo", { text: 5 })] }, { tools: [call("word_count", { text: "x y z" })] }, "done"] },
  {
    kind: "mixed reuse",
    turns: [
      { tools: [call("echo", { text: "m" }, "a"), call("word_count", { text: "m n" }, "b")] },
      { tools: [call("current_time", {}, "a"), call("echo", { text: "n" }, "c")] },
      { tools: [call("slow", { ms: 1 }, "b"), call("slow", { ms: 1 }, "d")] },
      "done",
    ],
  },
];

export async function receiptTruth(host: Host, model: ScriptedModelServer, auth: string, o: { tasks: number }): Promise<Outcome> {
  const failures: string[] = [];
  const init = await post(host.url, auth, INITIALIZE);
  if (init.status !== 200 || !init.session) return { lines: [], failures: [`receipt truth: initialize HTTP ${init.status} ${init.body.slice(0, 200)}`] };
  const receipts: { kind: string; receipt: ExecutionReceipt }[] = [];
  for (let i = 0; i < o.tasks; i++) {
    const script = HOSTILE_SCRIPTS[i % HOSTILE_SCRIPTS.length];
    model.setScript(...script.turns);
    const a = await post(host.url, auth, toolCall(i + 1, "motebit_task", { prompt: `hostile ${i}` }), init.session, 60_000);
    const text = resultText(a);
    if (text === null) {
      failures.push(`receipt truth: task ${i} (${script.kind}) got no receipt: HTTP ${a.status} ${a.body.slice(0, 200)}`);
      continue;
    }
    receipts.push({ kind: script.kind, receipt: JSON.parse(text) as ExecutionReceipt });
  }
  await host.stop();
  const rows = host.query<{ tool: string; outcome: string }>("SELECT tool, outcome FROM audit_log ORDER BY id");
  const segments: string[][] = [[]];
  for (const r of rows) {
    if (r.tool === "motebit_task") segments.push([]);
    else if (!r.tool.startsWith("model:") && (r.outcome === "allowed" || r.outcome === "error")) segments[segments.length - 1].push(r.tool);
  }
  let equal = 0;
  let verified = 0;
  for (const [i, { kind, receipt }] of receipts.entries()) {
    const executed = segments[i] ?? [];
    if (JSON.stringify(receipt.tools_used) === JSON.stringify(executed)) equal++;
    else if (failures.length < 8) failures.push(`receipt truth: task ${i} (${kind}) receipt says ${JSON.stringify(receipt.tools_used)}, the audit log shows ${JSON.stringify(executed)} executed`);
    if ((await verifyReceipt(receipt, { checkResultHash: true })).valid) verified++;
  }
  if (equal !== receipts.length) failures.push(`receipt truth: ${receipts.length - equal} of ${receipts.length} receipts list tools the audit log does not show executed (or miss some)`);
  if (verified !== receipts.length) failures.push(`receipt truth: ${receipts.length - verified} receipts do not verify`);
  return {
    lines: [
      `${host.name} receipt truth: ${o.tasks} hostile-model tasks (${HOSTILE_SCRIPTS.map((s) => s.kind).join("; ")}): ` +
        `${equal} of ${receipts.length} receipts' tools_used equal the audit log's executed tools, ${verified} verify`,
    ],
    failures,
  };
}

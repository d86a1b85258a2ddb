// motebit-local serving HTTP, SIGKILLed while a synchronous motebit_task (no tasks extension) runs a tool that
// blocks until the kill (issue 42 item 9): the next start signs exactly one receipt for the call, a failed one
// saying it was interrupted, once the killed host's lease has lapsed; the tool does not run again.
import { appendFileSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync as Database } from "node:sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { INTERRUPTED } from "../../../src/agent/task.js";
import { TASK_LEASE_MS } from "../../../src/mcp/engine/mcp-tasks.js";
import { verifyReceipt, type ExecutionReceipt } from "../../../src/protocol/index.js";
import { initMotebit, startHttpServe, tempDir, type HttpServe } from "./helpers/local-cli.js";
import { fetchStateless } from "../helpers/stateless-post.js";

const TOKEN = "sigkilled-sync-task-token";

describe("a SIGKILLed synchronous motebit_task", () => {
  const tmp = tempDir();
  const started = join(tmp.dir, "started.log");
  let args: string[];
  const servers: HttpServe[] = [];
  const query = <T>(sql: string, ...params: string[]): T[] => {
    const db = new Database(join(tmp.dir, ".motebit", "motebit.sqlite"), { readOnly: true });
    try {
      return db.prepare(sql).all(...params) as T[];
    } finally {
      db.close();
    }
  };
  beforeAll(async () => {
    // A service motebit: a peer's motebit_task needs no owner's approval.
    const identity = await initMotebit(tmp.dir, ["--type", "service", "--name", "sigkilled-sync"]);
    const tools = join(tmp.dir, "tools.mjs");
    writeFileSync(
      tools,
      `import { appendFileSync } from "node:fs";
export default [{
  definition: { name: "blocks", description: "Logs its start, then never answers.", inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] }, risk: "R0_READ" },
  handler: () => { appendFileSync(${JSON.stringify(started)}, "start\\n"); return new Promise(() => {}); },
}];
`,
    );
    const config = join(tmp.dir, "http.json");
    writeFileSync(config, JSON.stringify({ authToken: TOKEN }));
    appendFileSync(started, "");
    args = ["--identity", identity, "--tools", tools, "--config", config, "--serve-port", "0"];
  });
  afterAll(async () => {
    await Promise.allSettled(servers.map((s) => s.stop()));
    tmp.cleanup();
  });

  it("gets exactly one receipt after the restart: failed, interrupted, and the tool not run again", { timeout: TASK_LEASE_MS + 30_000 }, async () => {
    const first = await startHttpServe(args);
    servers.push(first);
    const call = fetchStateless(first.url, "tools/call", { name: "motebit_task", arguments: { prompt: "cut short", required_capabilities: ["blocks"] } }, { auth: `Bearer ${TOKEN}` }).catch((e: unknown) => e);
    for (let i = 0; i < 200 && readFileSync(started, "utf8") === ""; i++) await new Promise((r) => setTimeout(r, 25));
    expect(readFileSync(started, "utf8")).toBe("start\n");
    await first.kill();
    // The client saw its connection cut, no answer.
    expect(await call).toBeInstanceOf(Error);
    const [kept] = query<{ task_id: string }>("SELECT task_id FROM mcp_tasks WHERE admission IS NOT NULL");
    expect(kept).toBeDefined();
    expect(query("SELECT 1 FROM receipts")).toEqual([]);

    const second = await startHttpServe(args);
    servers.push(second);
    // Motebit-local is not the only host that may hold this data dir: the killed host's lease must lapse first.
    const deadline = Date.now() + TASK_LEASE_MS + 15_000;
    let rows: { run_id: string | null; json: string }[] = [];
    while (Date.now() < deadline && (rows = query("SELECT run_id, json FROM receipts")).length === 0) await new Promise((r) => setTimeout(r, 200));
    // Long enough for a second receipt, had the call been concluded twice.
    await new Promise((r) => setTimeout(r, 500));
    rows = query("SELECT run_id, json FROM receipts");
    expect(rows).toHaveLength(1);
    expect(rows[0].run_id).toBe(kept.task_id);
    const receipt = JSON.parse(rows[0].json) as ExecutionReceipt;
    expect(receipt).toMatchObject({ status: "failed", result: INTERRUPTED, tools_used: [] });
    expect((await verifyReceipt(receipt)).valid).toBe(true);
    expect(readFileSync(started, "utf8")).toBe("start\n");
    expect(query("SELECT 1 FROM mcp_tasks WHERE admission IS NOT NULL")).toEqual([]);
    expect(await second.stop()).toBe(0);
  });
});

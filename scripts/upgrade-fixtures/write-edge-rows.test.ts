// Writes the Durable Object's SQLite, as the edge host of the release it runs in leaves it, for the upgrade tests
// (test/workerd/edge/upgrade-from-previous-releases.test.ts). Not a test of this tree: copy it into an old release's
// test/workerd/edge/ and run it there (scripts/upgrade-fixtures/README.md). workerd cannot write files, so the
// dump is printed as one line after UPGRADE_FIXTURE_JSON; the README's command cuts it out.
import { runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import { initialize, motebitStub, post, rpc, signedAuth, STATIC } from "./helpers.js";

const V = "2026-07-28";
const TASKS = { extensions: { "io.modelcontextprotocol/tasks": {} } };

async function stateless(method: string, params: Record<string, unknown>, caps: Record<string, unknown> = {}) {
  const name = method === "tools/call" ? params.name : method.startsWith("tasks/") ? params.taskId : undefined;
  const headers: Record<string, string> = { "MCP-Protocol-Version": V, "Mcp-Method": method, ...(typeof name === "string" && { "Mcp-Name": name }) };
  const body = { jsonrpc: "2.0", id: 7, method, params: { ...params, _meta: { "io.modelcontextprotocol/protocolVersion": V, "io.modelcontextprotocol/clientCapabilities": caps } } };
  return (await post(body, { headers, accept: "application/json", auth: await signedAuth("known_caller") }).then((r) => r.json())) as { result: Record<string, unknown> };
}

function encode(v: unknown): unknown {
  if (v instanceof ArrayBuffer) v = new Uint8Array(v);
  if (v instanceof Uint8Array) return { $base64: btoa(String.fromCharCode(...v)) };
  return v;
}

it("writes memories, receipts, used jti, a session and tasks, then prints every row", async () => {
  const session = await initialize(await signedAuth("known_caller"));
  for (const content of ["The upgrade fixture's first memory", "The upgrade fixture's second memory"]) {
    const r = await post(rpc("tools/call", { name: "motebit_remember", arguments: { content } }), { auth: STATIC, session: await initialize(STATIC) });
    expect(r.status).toBe(200);
  }
  const task = await post(rpc("tools/call", { name: "motebit_task", arguments: { prompt: "session task" } }), { auth: await signedAuth("known_caller"), session });
  expect(task.status).toBe(200);
  for (const prompt of ["peer task one", "peer task two"]) {
    const created = (await stateless("tools/call", { name: "motebit_task", arguments: { prompt } }, TASKS)).result;
    let status = created.status;
    for (let i = 0; i < 100 && status === "working"; i++) {
      await new Promise((r) => setTimeout(r, 50));
      status = (await stateless("tasks/get", { taskId: created.taskId as string }, TASKS)).result.status;
    }
    expect(status).toBe("completed");
  }

  const dump = await runInDurableObject(motebitStub(), (_o, state) => {
    const sql = state.storage.sql;
    const objects = sql
      .exec<{ type: string; name: string; sql: string }>("SELECT type, name, sql FROM sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE '_cf_%' AND name NOT LIKE 'sqlite_%' ORDER BY rowid")
      .toArray();
    const rows: Record<string, unknown[]> = {};
    for (const o of objects.filter((x) => x.type === "table")) {
      rows[o.name] = sql.exec(`SELECT * FROM "${o.name}" ORDER BY rowid`).toArray().map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, encode(v)])));
    }
    return { objects, rows };
  });
  console.log(`UPGRADE_FIXTURE_JSON ${JSON.stringify(dump)}`);
});

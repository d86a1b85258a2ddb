// MOTEBIT_AUTH_TOKENS: each named static token is its own caller `static:<name>`. Two tokens share no session and
// no task: neither reads, cancels or counts against the other's. A token replaced or removed takes its work with it:
// its stored task ends in a signed failed receipt, and the token that now holds the name sees none of it.
import { env, runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import { MotebitObject } from "../../../worker/index.js";
import { verifyReceipt } from "../../../src/protocol/index.js";
import { authenticate } from "../../../src/server/auth.js";
import type { PeerPrincipal } from "../../../src/callers/signed-token.js";
import { readServerConfig } from "../../../src/settings/server-config.js";
import type { EdgeEnv } from "../../../worker/env.js";
import { TASKS } from "../../shared/stateless-request.js";
import { initialize, objectRows, post, postStateless, receiptOfTaskRow, rpc, SERVER_ID, statelessCall } from "./helpers.js";

const ALPHA = "Bearer edge-test-alpha-token-1";
const BETA = "Bearer edge-test-beta-token-01";
type Body = { result?: Record<string, unknown>; error?: { code: number; message: string } };

const stateless = (auth: string, method: string, params: Record<string, unknown>) => postStateless(method, params, { auth, caps: TASKS, id: 7 });

it("two named tokens are two callers: own sessions, own tasks, neither reads nor cancels the other's", async () => {
  const session = await initialize(ALPHA);
  const [row] = await objectRows<{ caller_id: string }>("SELECT caller_id FROM mcp_sessions WHERE id = ?", session);
  expect(row.caller_id).toMatch(/^static:alpha#[0-9a-f]{16}$/);
  expect((await post(rpc("ping"), { auth: BETA, session })).status).toBe(404);
  expect((await post(rpc("ping"), { auth: ALPHA, session })).status).toBe(200);

  const created = ((await (await stateless(ALPHA, "tools/call", { name: "motebit_task", arguments: { prompt: "3000", required_capabilities: ["slow"] } })).json()) as Body).result!;
  expect(created).toMatchObject({ resultType: "task", status: "working" });
  for (const method of ["tasks/get", "tasks/cancel"]) {
    const other = (await (await stateless(BETA, method, { taskId: created.taskId })).json()) as Body;
    expect(other.error, method).toBeDefined();
  }
  const own = ((await (await stateless(ALPHA, "tasks/get", { taskId: created.taskId })).json()) as Body).result!;
  expect(own.status).toBe("working");
  const [task] = await objectRows<{ caller_id: string; principal: string }>("SELECT caller_id, principal FROM mcp_tasks WHERE task_id = ?", created.taskId as string);
  expect(task.caller_id).toMatch(/^peer:static:alpha#[0-9a-f]{16}$/);
  expect(JSON.parse(task.principal)).toMatchObject({ callerId: "static:alpha", via: "static_token", trust: "verified" });
});

it("a replaced token's stored task ends in a signed failed receipt, and the new token sees none of its work", async () => {
  const stub = env.MOTEBIT.get(env.MOTEBIT.idFromName("named-static-token-rotation"));
  await runInDurableObject(stub, async (_live, state) => {
    const identity = { motebitId: SERVER_ID, publicKeyHex: "" };
    const who = async (e: object, bearer: string) => {
      const r = await authenticate(bearer, readServerConfig({ env: e as Record<string, unknown> }), identity, Date.now());
      if (!r.ok) throw new Error(JSON.stringify(r.body));
      return r.principal;
    };
    const call = (principal: PeerPrincipal, method: string, params: Record<string, unknown>) => statelessCall(principal, method, params, TASKS);
    const first = new MotebitObject(state, env as unknown as EdgeEnv);
    const alpha = await who(env, ALPHA);
    const res = await first.handleMcp(call(alpha, "tools/call", { name: "motebit_task", arguments: { prompt: "60000", required_capabilities: ["slow"] } }));
    const created = ((await res.json()) as Body).result as { taskId: string };

    // The operator gives "alpha" a new token and restarts: the old token's task resumes under the new settings.
    const rotated = { ...env, MOTEBIT_AUTH_TOKENS: JSON.stringify({ alpha: "edge-test-alpha-token-2" }) };
    const again = new MotebitObject(state, rotated as unknown as EdgeEnv);
    await again.identity();
    const receipt = await receiptOfTaskRow(state.storage.sql, created.taskId);
    expect(receipt).toMatchObject({ status: "failed", result: 'Error: not run: the caller lost its standing (the static token "alpha" was replaced)', tools_used: [] });
    expect((await verifyReceipt(receipt)).valid).toBe(true);

    const newAlpha = await who(rotated, "Bearer edge-test-alpha-token-2");
    expect(newAlpha.callerId).toBe("static:alpha");
    const read = (await (await again.handleMcp(call(newAlpha, "tasks/get", { taskId: created.taskId }))).json()) as Body;
    expect(read.error).toBeDefined();
    expect((await authenticate(ALPHA, readServerConfig({ env: rotated as Record<string, unknown> }), identity, Date.now())).ok).toBe(false);
  });
});

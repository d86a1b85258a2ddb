// At the edge (Workers AI binding double): a hostile model that names tools it was not offered (a motebit_* tool,
// an invented one) beside real calls gets a receipt whose tools_used is exactly what the audit log shows executed.
// (workers-ai-provider gives every tool call a fresh id, so a reused id cannot reach the loop through this binding;
// the reused-id cases are pinned in test/node/ai/hostile-model-receipts.test.ts and over HTTP on motebit-local.)
import { env, runInDurableObject } from "cloudflare:test";
import { expect, it } from "vitest";
import { MotebitObject } from "../../../worker/index.js";
import { stripIdentityTag, verifyReceipt, type ExecutionReceipt } from "../../../src/protocol/index.js";
import type { EdgeEnv } from "../../../worker/env.js";
import { SimWorkersAiChat } from "../../doubles/workers-ai-chat-sim.js";
import { SESSION_HEADER } from "../../../src/server/mcp-request.js";
import { INITIALIZE, rpc, STATIC_PEER } from "./helpers.js";

const PEER = STATIC_PEER;

it("every receipt's tools_used equals the audit log's executed tools under a hostile model", async () => {
  const ai = new SimWorkersAiChat([
    { tools: [{ name: "echo", input: { text: "a" } }, { name: "motebit_remember", input: { content: "x" } }, { name: "invented", input: {} }] },
    { tools: [{ name: "echo", input: { text: "b" } }, { name: "word_count", input: { text: 7 } }] },
    "done",
  ]);
  const stub = env.MOTEBIT.get(env.MOTEBIT.idFromName("ai-receipt-truth"));
  await runInDurableObject(stub, async (_live, state) => {
    const o = new MotebitObject(state, { ...env, AI: ai, MOTEBIT_PROVIDER: "workers-ai", MOTEBIT_EMBEDDER: "local" } as unknown as EdgeEnv);
    const init = await o.handleMcp({ principal: PEER, jti: null, sessionId: null, method: "POST", mode: "json", kind: "request", message: INITIALIZE });
    const sessionId = init.headers.get(SESSION_HEADER)!;
    const res = await o.handleMcp({ principal: PEER, jti: null, sessionId, method: "POST", mode: "json", kind: "request", message: rpc("tools/call", { name: "motebit_task", arguments: { prompt: "go" } }) });
    const body = (await res.json()) as { result: { content: { text: string }[] } };
    const receipt = JSON.parse(stripIdentityTag(body.result.content[0].text)) as ExecutionReceipt;
    const executed = state.storage.sql
      .exec<{ tool: string }>("SELECT tool FROM audit_log WHERE outcome IN ('allowed', 'error') AND tool NOT LIKE 'model:%' AND tool NOT LIKE 'motebit_%' ORDER BY id")
      .toArray()
      .map((r) => r.tool);
    expect(receipt.tools_used).toEqual(["echo", "echo"]);
    expect(receipt.tools_used).toEqual(executed);
    expect((await verifyReceipt(receipt)).valid).toBe(true);
  });
});

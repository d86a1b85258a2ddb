import { describe, expect, it } from "vitest";
import { makeMotebit, owner, peer, relayPeer } from "../helpers/motebit.js";
import { sha256Hex, stripIdentityTag, verifyReceipt } from "../../../src/protocol/index.js";

const receiptOf = async (h: Awaited<ReturnType<typeof makeMotebit>>, p: Parameters<typeof h.text>[0], args: Record<string, unknown>) =>
  JSON.parse(stripIdentityTag(await h.text(p, "motebit_task", args)));

describe("motebit_task returns a signed ExecutionReceipt", () => {
  it("runs the first served tool in direct mode and signs the result; the receipt verifies", async () => {
    const h = await makeMotebit();
    const r = await receiptOf(h, relayPeer, { prompt: "hello world", relay_task_id: "relay-42", required_capabilities: ["echo"] });
    expect(r.status).toBe("completed");
    expect(r.result).toBe("hello world");
    expect(r.tools_used).toEqual(["echo"]);
    expect(r.memories_formed).toBe(0);
    expect(r.relay_task_id).toBe("relay-42");
    expect(r.invocation_origin).toBe("agent-to-agent");
    expect(r.motebit_id).toBe(h.m.motebitId);
    expect(r.prompt_hash).toBe(await sha256Hex("hello world"));
    const v = await verifyReceipt(r, { checkResultHash: true });
    expect(v).toMatchObject({ valid: true, sovereign: true, motebit_id: h.m.motebitId });
  });

  it("emits no field beyond the receipt schema", async () => {
    const h = await makeMotebit();
    const r = await receiptOf(h, peer(), { prompt: "x" });
    const allowed = new Set([
      "task_id", "motebit_id", "device_id", "submitted_at", "completed_at", "status", "result", "tools_used", "memories_formed",
      "prompt_hash", "result_hash", "relay_task_id", "delegated_scope", "delegation_receipts", "invocation_origin", "public_key", "suite", "signature",
    ]);
    for (const k of Object.keys(r)) expect(allowed.has(k)).toBe(true);
  });

  it("fails verification when any signed field changes", async () => {
    const h = await makeMotebit();
    const r = await receiptOf(h, relayPeer, { prompt: "hello", relay_task_id: "t-1" });
    const changes: Record<string, unknown> = {
      task_id: "other", motebit_id: "other", device_id: "other", submitted_at: r.submitted_at + 1, completed_at: r.completed_at + 1,
      status: "failed", result: "changed", tools_used: [], memories_formed: 1, prompt_hash: "0".repeat(64), result_hash: "0".repeat(64),
      relay_task_id: "t-2", invocation_origin: "user-tap",
    };
    for (const [k, v] of Object.entries(changes)) {
      expect((await verifyReceipt({ ...r, [k]: v })).valid, k).toBe(false);
    }
  });

  it("maps the prompt to the tool named by a single required capability", async () => {
    const h = await makeMotebit();
    const r = await receiptOf(h, peer(), { prompt: "one two three", required_capabilities: ["word_count"] });
    expect(r.tools_used).toEqual(["word_count"]);
    expect(JSON.parse(r.result)).toEqual({ words: 3 });
  });

  it("is a signed denied receipt when the gate refuses the chosen tool", async () => {
    const tools = [{ definition: { name: "pay", description: "p", inputSchema: { type: "object", properties: { to: { type: "string" } }, required: ["to"] }, risk: "R4_MONEY" }, handler: () => ({ ok: true, data: "paid" }) }];
    const h = await makeMotebit({ tools });
    const r = await receiptOf(h, peer(), { prompt: "alice" });
    expect(r.status).toBe("denied");
    expect(r.tools_used).toEqual([]);
    expect(r.result).toMatch(/^Policy denied: /);
    expect((await verifyReceipt(r)).valid).toBe(true);
  });

  it("times out for real: the work is aborted and the failure is still signed", async () => {
    let aborted = false;
    const tools = [{
      definition: { name: "hang", description: "h", inputSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] }, risk: 0 },
      handler: (_a: unknown, { signal }: { signal: AbortSignal }) => new Promise(() => signal.addEventListener("abort", () => { aborted = true; })),
    }];
    const h = await makeMotebit({ tools, taskTimeoutMs: 150 });
    const started = Date.now();
    const r = await receiptOf(h, peer(), { prompt: "wait" });
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(aborted).toBe(true);
    expect(r.status).toBe("failed");
    expect(r.result).toBe("Error: task timed out after 150ms");
    expect((await verifyReceipt(r)).valid).toBe(true);
  });

  it("answers a relay's retry of the same relay_task_id with the receipt it already issued", async () => {
    let runs = 0;
    const tools = [{ definition: { name: "count", description: "c", inputSchema: { type: "object", properties: { q: { type: "string" } }, required: ["q"] }, risk: 0 }, handler: () => ({ ok: true, data: String(++runs) }) }];
    const h = await makeMotebit({ tools });
    const first = await receiptOf(h, relayPeer, { prompt: "go", relay_task_id: "rt-9" });
    const again = await receiptOf(h, relayPeer, { prompt: "go", relay_task_id: "rt-9" });
    expect(again).toEqual(first);
    expect(runs).toBe(1);
    const otherCaller = await receiptOf(h, { ...relayPeer, callerId: "relay:r2" }, { prompt: "go", relay_task_id: "rt-9" });
    expect(otherCaller.task_id).not.toBe(first.task_id);
    expect(runs).toBe(2);
  });

  it("appends every receipt to a ledger the owner can read", async () => {
    const h = await makeMotebit();
    const r = await receiptOf(h, peer(), { prompt: "ledger me" });
    const res = await h.rpc(owner, "resources/read", { uri: "motebit://receipts" });
    const ledger = JSON.parse(res.result.contents[0].text);
    expect(JSON.stringify(ledger)).toContain(r.task_id);
    const peerRead = await h.rpc(peer(), "resources/read", { uri: "motebit://receipts" });
    expect(peerRead.error).toEqual({ code: -32602, message: "Denied: motebit://receipts is served only to the owner over stdio" });
  });

  it("an owner task over stdio may use localOnly tools and reports ai-loop (its MCP client's model chose the call)", async () => {
    const tools = [{ definition: { name: "note", description: "n", inputSchema: { type: "object", properties: { p: { type: "string" } }, required: ["p"] }, risk: 0, localOnly: true }, handler: (a: any) => ({ ok: true, data: `note ${a.p}` }) }];
    const h = await makeMotebit({ tools });
    const r = await receiptOf(h, owner, { prompt: "x" });
    expect(r).toMatchObject({ status: "completed", result: "note x", invocation_origin: "ai-loop" });
    const p = await receiptOf(h, peer(), { prompt: "x" });
    expect(p.status).toBe("failed");
  });
});

// At the edge the Durable Object answers a tools/call as an SSE stream once something precedes the result, and
// finds the in-flight call when notifications/cancelled arrives as its own POST in the same session: the
// cancelled motebit_task ends in a signed `failed` receipt in the object's ledger.
import { describe, expect, it } from "vitest";
import { verifyReceipt, stripIdentityTag, type ExecutionReceipt } from "../../../src/protocol/index.js";
import { initialize, objectRows, post, rpc } from "./helpers.js";

/** Reads SSE `message` events off a stream until `stop` says so (or the stream ends). */
async function readEvents(reader: ReadableStreamDefaultReader<Uint8Array>, events: any[], stop: (e: any) => boolean) {
  const decoder = new TextDecoder();
  let buf = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buf += decoder.decode(value, { stream: true });
    for (let i = buf.indexOf("\n\n"); i >= 0; i = buf.indexOf("\n\n")) {
      const event = buf.slice(0, i);
      buf = buf.slice(i + 2);
      const data = event.split("\n").find((l) => l.startsWith("data: "));
      if (data) events.push(JSON.parse(data.slice(6)));
      if (stop(events.at(-1))) return;
    }
  }
}

describe("edge: progress stream and cancellation", () => {
  it("streams motebit_task's stages, and a cancel POST ends it with a signed failed receipt in the ledger", async () => {
    const session = await initialize();
    const call = rpc("tools/call", { name: "motebit_task", arguments: { prompt: "20000", required_capabilities: ["slow"] }, _meta: { progressToken: "t1" } }, 5);
    const started = Date.now();
    const res = await post(call, { session });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("text/event-stream");
    const reader = res.body!.getReader();
    const events: any[] = [];
    await readEvents(reader, events, (e) => e?.params?.message === "tool running");
    expect(events.map((e) => e.params.message)).toEqual(["gate passed", "tool running"]);

    const cancel = await post({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 5, reason: "no longer needed" } }, { session });
    expect(cancel.status).toBe(202);
    await readEvents(reader, events, (e) => e?.id === 5);
    expect(Date.now() - started).toBeLessThan(10_000);

    const final = events.at(-1);
    const receipt = JSON.parse(stripIdentityTag(final.result.content[0].text)) as ExecutionReceipt;
    expect(receipt).toMatchObject({ status: "failed", result: "Error: task cancelled", tools_used: ["slow"] });
    expect((await verifyReceipt(receipt, { checkResultHash: true })).valid).toBe(true);
    // Cancelled work is still signed, and the last stage says so.
    expect(events.filter((e) => e.method === "notifications/progress").map((e) => e.params.message)).toEqual(["gate passed", "tool running", "receipt signed"]);
    const rows = await objectRows<{ json: string }>("SELECT json FROM receipts WHERE task_id = ?", receipt.task_id);
    expect(JSON.parse(rows[0].json)).toEqual(receipt);
  });

  it("a cancel from another session leaves the call running", async () => {
    const mine = await initialize();
    const theirs = await initialize();
    const res = await post(rpc("tools/call", { name: "slow", arguments: { ms: 300 }, _meta: { progressToken: "t2" } }, 9), { session: mine });
    expect((await post({ jsonrpc: "2.0", method: "notifications/cancelled", params: { requestId: 9 } }, { session: theirs })).status).toBe(202);
    const body = (await res.json()) as { result: { content: { text: string }[] } };
    expect(body.result.content[0].text).toMatch(/^waited 300ms\n/);
  });
});

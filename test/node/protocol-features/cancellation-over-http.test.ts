// notifications/cancelled, sent as its own POST in the same session, aborts the running call's signal; a
// cancelled motebit_task still ends in a signed `failed` receipt in the ledger. Another session cannot cancel it.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyReceipt } from "../../../src/protocol/index.js";
import { startProtocolHost, type ProtocolHost } from "../helpers/protocol-host.js";
import { waits } from "../helpers/protocol-tools.js";
import { waitFor } from "../../shared/wait-for.js";

let host: ProtocolHost;
beforeAll(async () => void (host = await startProtocolHost()));
afterAll(async () => host?.close());

describe("cancellation over HTTP", () => {
  it("aborts a served tool's signal", async () => {
    const client = await host.connect();
    const abort = new AbortController();
    const call = client.callTool({ name: "wait", arguments: { label: "served" } }, undefined, { signal: abort.signal });
    await waitFor("the tool to start", () => waits.started.includes("served"), 5_000);
    abort.abort("changed my mind");
    await expect(call).rejects.toThrow();
    await waitFor("the tool to see the abort", () => waits.ended.includes("served:aborted"), 5_000);
  });

  it("a cancelled motebit_task yields a signed failed receipt, 'Error: task cancelled', in the ledger", async () => {
    const client = await host.connect();
    const before = host.motebit.ledger.count();
    const abort = new AbortController();
    const call = client.callTool({ name: "motebit_task", arguments: { prompt: "task", required_capabilities: ["wait"] } }, undefined, { signal: abort.signal });
    await waitFor("the task's tool to start", () => waits.started.includes("task"), 5_000);
    abort.abort("stop");
    await expect(call).rejects.toThrow();
    await waitFor("the receipt", () => host.motebit.ledger.count() === before + 1, 5_000);
    const [{ receipt }] = host.motebit.ledger.list({ limit: 1 });
    expect(receipt).toMatchObject({ status: "failed", result: "Error: task cancelled", tools_used: ["wait"] });
    expect((await verifyReceipt(receipt, { checkResultHash: true })).valid).toBe(true);
  });

  it("a cancellation from another session does not reach the call", async () => {
    const owner = await host.connect();
    const other = await host.connect();
    const call = owner.callTool({ name: "wait", arguments: { label: "guarded" } });
    await waitFor("the tool to start", () => waits.started.includes("guarded"), 5_000);
    // The SDK numbers requests per client from 0: initialize was 0, this call is 1 in both sessions.
    await other.notification({ method: "notifications/cancelled", params: { requestId: 1, reason: "not yours" } });
    await new Promise((r) => setTimeout(r, 100));
    expect(waits.ended).not.toContain("guarded:aborted");
    await owner.notification({ method: "notifications/cancelled", params: { requestId: 1, reason: "mine" } });
    await waitFor("the owner's own cancellation", () => waits.ended.includes("guarded:aborted"), 5_000);
    void call.catch(() => {});
  });
});

// The self-test against a scripted relay: what it submits in each mode, and how it judges what comes back. Signed
// mode names this motebit as submitter and stops at auth_verified when the relay makes no routing choice, but polls
// on when a relay does route it; a completed task whose receipt ran another tool than the one asked for is
// task_failed, not passed.
import { describe, expect, it } from "vitest";
import { systemClock } from "../../../src/ports.js";
import { createSigner, sha256Hex, signReceipt, sovereignMotebitId } from "../../../src/protocol/index.js";
import { RelayClient } from "../../../src/relay/client.js";
import { runSelfTest } from "../../../src/relay/self-test.js";
import { TEST_SEED } from "../helpers/motebit.js";

async function scriptedRelay(o: { apiToken: string | null; routing: unknown; ranTool: string; answeredBy?: "another key, our id" | "another motebit" }) {
  const signer = await createSigner(TEST_SEED);
  const motebitId = await sovereignMotebitId(signer.publicKeyHex);
  const other = await createSigner("11".repeat(32));
  const receiptSigner = o.answeredBy === undefined ? signer : other;
  const receiptMotebit = o.answeredBy === "another motebit" ? await sovereignMotebitId(other.publicKeyHex) : motebitId;
  const submissions: Record<string, unknown>[] = [];
  const fetch = async (url: string, init?: RequestInit) => {
    if (init?.method === "POST") {
      submissions.push(JSON.parse(String(init.body)));
      return Response.json({ task_id: "t-1", status: "pending", routing_choice: o.routing }, { status: 201 });
    }
    const result = "ok";
    const receipt = await signReceipt(
      {
        task_id: "r-1",
        motebit_id: receiptMotebit,
        device_id: "d",
        submitted_at: 1,
        completed_at: 2,
        status: "completed",
        result,
        tools_used: [o.ranTool],
        memories_formed: 0,
        prompt_hash: await sha256Hex("p"),
        result_hash: await sha256Hex(result),
        relay_task_id: "t-1",
        invocation_origin: "agent-to-agent",
      },
      receiptSigner,
    );
    return Response.json({ task: { task_id: "t-1", status: "completed" }, receipt });
  };
  const client = new RelayClient({ syncUrl: "http://relay.test", fetch, clock: systemClock, auth: { apiToken: o.apiToken, signer, motebitId, deviceId: "d" } });
  const run = () =>
    runSelfTest({ client, motebitId, publicKeyHex: signer.publicKeyHex, endpointUrl: "http://me.test", task: { tool: "word_count", prompt: "a b" }, timeoutMs: 5_000, clock: systemClock, sleep: async () => {} });
  return { run, submissions, motebitId, other };
}

describe("the self-test's submission and judgement", () => {
  it("signed, no routing choice: names us as submitter and a served tool, and stops at auth_verified", async () => {
    const r = await scriptedRelay({ apiToken: null, routing: null, ranTool: "word_count" });
    expect(await r.run()).toMatchObject({ outcome: "auth_verified", taskId: "t-1" });
    expect(r.submissions).toEqual([{ prompt: "a b", required_capabilities: ["word_count"], submitted_by: r.motebitId }]);
  });

  it("signed, but the relay routed it: polls on and passes on a receipt for the tool asked for", async () => {
    const r = await scriptedRelay({ apiToken: null, routing: { selected_agent: "x" }, ranTool: "word_count" });
    expect(await r.run()).toMatchObject({ outcome: "passed" });
  });

  it("apiToken: no submitted_by (the relay would never route it to us), and a receipt for another tool is task_failed", async () => {
    const r = await scriptedRelay({ apiToken: "T", routing: null, ranTool: "echo" });
    const report = await r.run();
    expect(r.submissions).toEqual([{ prompt: "a b", required_capabilities: ["word_count"] }]);
    expect(report).toMatchObject({ outcome: "task_failed", why: 'task t-1 asked for word_count but the receipt says it ran ["echo"]' });
  });

  it("a receipt for our id under another key: says the relay lists another key for our id, and what to do", async () => {
    const r = await scriptedRelay({ apiToken: "T", routing: null, ranTool: "word_count", answeredBy: "another key, our id" });
    const report = await r.run();
    expect(report.outcome).toBe("task_failed");
    expect(report.why).toBe(
      `task t-1 completed but its receipt is signed by key ${r.other.publicKeyHex.slice(0, 16)}… for this motebit's id, not this motebit's key ${(await createSigner(TEST_SEED)).publicKeyHex.slice(0, 16)}…: the relay lists another key for ${r.motebitId}`,
    );
    expect(report.next).toBe("stop whatever else serves this id (another host with the same identity), or remove its registration at the relay (or wait for its heartbeat to lapse), then restart");
  });

  it("a receipt from another motebit: says the relay routed the task elsewhere", async () => {
    const r = await scriptedRelay({ apiToken: "T", routing: null, ranTool: "word_count", answeredBy: "another motebit" });
    const report = await r.run();
    expect(report.outcome).toBe("task_failed");
    expect(report.why).toMatch(/^task t-1 completed but its receipt comes from motebit [\w-]+ \(key [0-9a-f]{16}…\), not this one: the relay routed the task to another agent offering the tool$/);
    expect(report.next).toMatch(/^stop the other agent .* so the relay routes to http:\/\/me\.test/);
  });
});

// A task the relay forwards as {prompt, relay_task_id} (the reference relay drops the submitter's
// required_capabilities) runs the capability its task record at the relay names: direct mode runs that tool, AI mode
// tells the model and offers it first. When the record cannot be read the receipt says so and the default rule picks
// the tool. Only the relay principal's forwards are looked up, only without a required_capability, and every forward
// asks again (nothing cached).
import { describe, expect, it } from "vitest";
import type { Principal } from "../../../src/principal.js";
import { stripIdentityTag, verifyReceipt } from "../../../src/protocol/index.js";
import type { RelayTaskLookup } from "../../../src/ports.js";
import { RELAY_TASK_ID_REFUSAL } from "../../../src/agent/task.js";
import { makeMotebit, peer } from "../helpers/motebit.js";
import { ScriptedLlm } from "../helpers/scripted-llm.js";

const relay: Principal = { kind: "peer", callerId: "relay:relay", via: "relay", trust: "verified" };

async function withLookup(answer: (id: string) => RelayTaskLookup, llm?: ScriptedLlm) {
  const h = await makeMotebit({ llm });
  const asked: string[] = [];
  h.m.relayTaskLookup = async (id) => (asked.push(id), answer(id));
  const task = async (p: Principal, args: Record<string, unknown>) => JSON.parse(stripIdentityTag(await h.text(p, "motebit_task", args)));
  return { h, asked, task };
}

describe("a forwarded task's capability, read back from the relay", () => {
  it("direct mode runs the tool the relay's task record names, and asks again for every forward", async () => {
    const { asked, task } = await withLookup(() => ({ ok: true, requiredCapabilities: ["word_count"] }));
    for (const id of ["t-1", "t-2"]) {
      const r = await task(relay, { prompt: "one two three", relay_task_id: id });
      expect(r).toMatchObject({ status: "completed", tools_used: ["word_count"], relay_task_id: id, result: '{"words":3}' });
      expect((await verifyReceipt(r, { checkResultHash: true })).valid).toBe(true);
    }
    expect(asked).toEqual(["t-1", "t-2"]);
  });

  it("a lookup that fails is said in the receipt's result, and the default rule picks the tool", async () => {
    const { task } = await withLookup(() => ({ ok: false, why: "relay answered 404 (Task not found)" }));
    const r = await task(relay, { prompt: "hello", relay_task_id: "t-3" });
    expect(r).toMatchObject({ status: "completed", tools_used: ["echo"], relay_task_id: "t-3" });
    expect(r.result).toBe("Note: the relay's record of task t-3 could not be read (relay answered 404 (Task not found)); the tool was chosen by the default rule.\nhello");
    expect((await verifyReceipt(r, { checkResultHash: true })).valid).toBe(true);
  });

  it("without a relay loop to ask, the receipt says so", async () => {
    const h = await makeMotebit();
    const r = JSON.parse(stripIdentityTag(await h.text(relay, "motebit_task", { prompt: "hello", relay_task_id: "t-4" })));
    expect(r.result).toBe("Note: the relay's record of task t-4 could not be read (this motebit runs no relay loop (syncUrl) to ask); the tool was chosen by the default rule.\nhello");
  });

  it("is not asked for another peer's task, nor when the task names its capability", async () => {
    const { h, asked, task } = await withLookup(() => ({ ok: true, requiredCapabilities: ["word_count"] }));
    // Another peer's relay_task_id is refused before anything is asked (only the relay, or a dispatch token, binds one).
    expect(await h.text(peer(), "motebit_task", { prompt: "hi", relay_task_id: "t-5" })).toBe(RELAY_TASK_ID_REFUSAL);
    expect(await task(relay, { prompt: "hi", relay_task_id: "t-6", required_capabilities: ["echo"] })).toMatchObject({ tools_used: ["echo"] });
    expect(asked).toEqual([]);
  });

  it("AI mode: the model is told what was asked for and offered that tool first", async () => {
    const llm = new ScriptedLlm({ tools: [{ name: "word_count", input: { text: "a b" } }] }, "done");
    const { task } = await withLookup(() => ({ ok: true, requiredCapabilities: ["word_count"] }), llm);
    const r = await task(relay, { prompt: "count a b", relay_task_id: "t-7" });
    expect(r).toMatchObject({ status: "completed", tools_used: ["word_count"] });
    expect(llm.transcript()).toContain("The submitter asked for: word_count. Use word_count for this task.");
    expect(llm.seen[0].tools?.[0]).toMatchObject({ name: "word_count" });
  });
});

import { describe, expect, it } from "vitest";
import { makeMotebit, owner, peer, relayPeer } from "../helpers/motebit.js";
import { ScriptedLlm } from "../helpers/scripted-llm.js";
import { verifyReceipt } from "../../../src/protocol/index.js";
import { aiMotebit, aiTask, toolResultsSeen } from "./ai-fixture.js";

describe("motebit_task in AI mode chains tools and signs what ran", () => {
  it("a peer's task that needs two tools lists both, in call order, in a receipt that verifies", async () => {
    const { h, llm } = await aiMotebit([
      { tools: [{ name: "echo", input: { text: "hello there world" } }] },
      { tools: [{ name: "word_count", input: { text: "hello there world" } }] },
      "The echo said hello there world, which has 3 words.",
    ]);
    const r = await aiTask(h, relayPeer, { prompt: "echo 'hello there world' and count its words", relay_task_id: "relay-7", required_capabilities: ["echo", "word_count"] });
    expect(r.status).toBe("completed");
    expect(r.tools_used).toEqual(["echo", "word_count"]);
    expect(r.result).toBe("The echo said hello there world, which has 3 words.");
    expect(r.memories_formed).toBe(0);
    expect(r.invocation_origin).toBe("agent-to-agent");
    expect(r.relay_task_id).toBe("relay-7");
    expect((await verifyReceipt(r)).valid).toBe(true);
    expect((await verifyReceipt({ ...r, relay_task_id: "relay-8" })).valid).toBe(false);
    // The second call saw the first tool's output, marked as external data.
    const [seen] = toolResultsSeen(llm, 1);
    expect(seen.toolName).toBe("echo");
    expect(String(seen.output.value)).toMatch(/^<external-data source="echo">\nhello there world\n<\/external-data>$/);
    expect(llm.calls).toBe(3);
  });

  it("parallel calls in one response run and are listed in the order the model made them", async () => {
    const { h } = await aiMotebit([
      { tools: [{ name: "word_count", input: { text: "a b" } }, { name: "echo", input: { text: "x" } }] },
      "done",
    ]);
    const r = await aiTask(h, owner, { prompt: "both at once" });
    expect(r.status).toBe("completed");
    expect(r.tools_used).toEqual(["word_count", "echo"]);
    expect(r.invocation_origin).toBe("ai-loop");
  });

  it("offers only served tools this caller may use now: no motebit_* tool; for a peer no localOnly tool and no approval band", async () => {
    // R0 runs automatically, R1–R2 need approval, R3 and above are denied.
    const governance = { max_risk_auto: "R0_READ", require_approval_above: "R0_READ", deny_above: "R2_WRITE" };
    const offeredTo = async (p: typeof owner) => {
      const llm = new ScriptedLlm("nothing to do");
      const h = await makeMotebit({ llm, identity: "personal", editIdentity: (d) => void (d.governance = governance as typeof d.governance) });
      await h.call(p, "motebit_query", { message: "hi" });
      return (llm.seen[0].tools ?? []).map((t) => t.name).sort();
    };
    expect(await offeredTo(peer("trusted"))).toEqual(["current_time", "echo", "word_count"]);
    expect(await offeredTo(owner)).toEqual(["current_time", "echo", "read_note", "slow", "word_count"]);
  });
});

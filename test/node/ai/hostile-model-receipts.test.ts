// A hostile scripted model: reused tool-call ids (across responses and within one), tools it was not offered,
// tools of another principal. Whatever it does, the signed receipt's tools_used is exactly the tools the audit
// log shows executed (outcome allowed or error), in order, and nothing the loop did not offer ever runs.
import { describe, expect, it } from "vitest";
import { makeMotebit, peer, type Harness } from "../helpers/motebit.js";
import { ScriptedLlm, type ScriptTurn } from "../helpers/scripted-llm.js";
import { verifyReceipt } from "../../../src/protocol/index.js";
import type { ServedTool } from "../../../src/tools/types.js";
import exampleTools from "../../../examples/tools/index.js";
import { aiTask, toolResultsSeen } from "./ai-fixture.js";
import type { Principal } from "../../../src/principal.js";

function counted(name: string, risk: string): { tool: ServedTool; runs: () => number } {
  let runs = 0;
  const tool: ServedTool = {
    definition: { name, description: `${name}s.`, inputSchema: { type: "object", properties: {} }, risk: risk as ServedTool["definition"]["risk"] },
    handler: () => (runs++, { ok: true, data: `${name} done` }),
  };
  return { tool, runs: () => runs };
}

/** The tools the audit log shows executed, oldest first (the turn row and the motebit_task call itself excluded). */
const executed = (h: Harness) =>
  h.m.audit
    .list()
    .filter((e) => !e.tool.startsWith("model:") && !e.tool.startsWith("motebit_") && (e.outcome === "allowed" || e.outcome === "error"))
    .reverse()
    .map((e) => e.tool);

async function run(script: ScriptTurn[], p: Principal, o: { identity?: "personal" | "service"; tools?: ServedTool[] } = {}) {
  const llm = new ScriptedLlm(...script);
  const h = await makeMotebit({ llm, identity: o.identity, tools: o.tools ?? exampleTools });
  const r = await aiTask(h, p, { prompt: "go" });
  expect((await verifyReceipt(r)).valid).toBe(true);
  expect(r.tools_used).toEqual(executed(h));
  return { h, llm, r };
}

describe("a hostile model cannot make a receipt claim what did not run", () => {
  it("an id reused in a later response: the second call never runs and the receipt lists only the first", async () => {
    const money = counted("r4_money", "R4_MONEY");
    const { h, llm, r } = await run(
      [{ tools: [{ id: "dup1", name: "echo", input: { text: "a" } }] }, { tools: [{ id: "dup1", name: "r4_money", input: {} }] }, "done"],
      peer(),
      { tools: [...exampleTools, money.tool] },
    );
    expect(r.status).toBe("completed");
    expect(r.tools_used).toEqual(["echo"]);
    expect(money.runs()).toBe(0);
    expect(h.m.audit.list().find((e) => e.tool === "r4_money")?.outcome).toBe("invalid");
    expect(toolResultsSeen(llm, 2).at(-1)?.output).toEqual({ type: "error-text", value: 'Error: tool call id "dup1" was already used in this turn; the call did not run' });
  });

  it("an id reused in a later response for a tool that would be allowed still does not run", async () => {
    const { r } = await run(
      [{ tools: [{ id: "same", name: "echo", input: { text: "a" } }] }, { tools: [{ id: "same", name: "word_count", input: { text: "a b" } }] }, "done"],
      peer(),
    );
    expect(r.tools_used).toEqual(["echo"]);
  });

  it("the same id twice in one response runs once and is listed once", async () => {
    const e = counted("tick", "R0_READ");
    const { r } = await run([{ tools: [{ id: "x", name: "tick", input: {} }, { id: "x", name: "tick", input: {} }] }, "done"], peer(), {
      tools: [...exampleTools, e.tool],
    });
    expect(e.runs()).toBe(1);
    expect(r.tools_used).toEqual(["tick"]);
  });

  it("a tool the gate would allow but the loop did not offer (approval band, trusted peer) is refused and never runs", async () => {
    // personal preset: R2-R3 are the approval band; a trusted peer passes the gate there, but peers are never offered it.
    const exec = counted("deploy", "R3_EXECUTE");
    const { h, llm, r } = await run([{ tools: [{ name: "deploy", input: {} }] }, "could not"], peer("trusted"), {
      identity: "personal",
      tools: [...exampleTools, exec.tool],
    });
    expect((llm.seen[0].tools ?? []).map((t) => t.name)).not.toContain("deploy");
    expect(exec.runs()).toBe(0);
    expect(r.status).toBe("denied");
    expect(r.tools_used).toEqual([]);
    expect(h.m.audit.list().find((e) => e.tool === "deploy")?.outcome).toBe("denied");
    expect(toolResultsSeen(llm, 1)[0].output).toEqual({ type: "error-text", value: 'Policy denied: tool "deploy" was not offered in this turn' });
  });

  it("the owner's localOnly tool and a motebit_* tool named by a peer's model never run", async () => {
    const { r } = await run(
      [{ tools: [{ name: "read_note", input: { path: "diary" } }, { name: "motebit_remember", input: { content: "x" } }, { name: "echo", input: { text: "ok" } }] }, "done"],
      peer(),
    );
    expect(r.tools_used).toEqual(["echo"]);
  });

  it("a mixed hostile run: reused ids, refusals and real calls, the receipt equals the executed record", async () => {
    const money = counted("r4_money", "R4_MONEY");
    const { r } = await run(
      [
        { tools: [{ id: "a", name: "echo", input: { text: "1" } }, { id: "b", name: "r4_money", input: {} }] },
        { tools: [{ id: "a", name: "word_count", input: { text: "x" } }, { id: "c", name: "word_count", input: { text: "x y" } }] },
        { tools: [{ id: "b", name: "echo", input: { text: "2" } }, { id: "d", name: "echo", input: { text: 3 } }] },
        "done",
      ],
      peer(),
      { tools: [...exampleTools, money.tool] },
    );
    expect(r.tools_used).toEqual(["echo", "word_count"]);
    expect(money.runs()).toBe(0);
  });
});

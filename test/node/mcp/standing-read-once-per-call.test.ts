// A call asks the host's settings about its caller once: the view built where the dispatcher takes the message
// holds the standing, and the refresh of the principal, the run check, the gate, the task's admission and a
// direct task's tool step all read it. Only an AI turn's later tool steps read again (a model call came between).
import { describe, expect, it } from "vitest";
import { makeMotebit, owner, peer } from "../helpers/motebit.js";
import { ScriptedLlm } from "../helpers/scripted-llm.js";
import type { Principal, Standing } from "../../../src/principal.js";
import { stripIdentityTag } from "../../../src/protocol/index.js";

/** A standing port double that counts what it is asked. */
function countingStanding() {
  const asked: Principal[] = [];
  return { asked, standing: (p: Principal): Standing => (asked.push(p), { ok: true, principal: p }) };
}

describe("caller standing is read once per call", () => {
  const cases: [string, string, Record<string, unknown>][] = [
    ["a served tool", "echo", { text: "hi" }],
    ["motebit_tools", "motebit_tools", {}],
    ["motebit_service_listing", "motebit_service_listing", {}],
    ["motebit_task in direct mode", "motebit_task", { prompt: "hello" }],
  ];
  for (const [label, name, args] of cases) {
    it(`${label}: one read`, async () => {
      const s = countingStanding();
      const h = await makeMotebit({ identity: "service", callerStanding: s.standing });
      const r = await h.call(peer("trusted"), name, args);
      expect(r.isError, stripIdentityTag(r.content[0].text)).toBeUndefined();
      expect(s.asked).toHaveLength(1);
    });
  }

  it("tools/list: one read for every verdict it shows", async () => {
    const s = countingStanding();
    const h = await makeMotebit({ identity: "service", callerStanding: s.standing });
    const listed = (await h.rpc(peer("verified"), "tools/list")).result.tools;
    expect(listed.length).toBeGreaterThan(3);
    expect(s.asked).toHaveLength(1);
  });

  it("a message that needs no verdict reads none", async () => {
    const s = countingStanding();
    const h = await makeMotebit({ callerStanding: s.standing });
    await h.rpc(owner, "ping");
    await h.rpc(peer(), "resources/list");
    expect(s.asked).toHaveLength(0);
  });

  it("an AI task reads once for the call and once more per tool step", async () => {
    const s = countingStanding();
    const llm = new ScriptedLlm({ tools: [{ name: "echo", input: { text: "one" } }] }, { tools: [{ name: "word_count", input: { text: "a b" } }] }, "done");
    const h = await makeMotebit({ identity: "service", llm, callerStanding: s.standing });
    const r = await h.call(peer("trusted"), "motebit_task", { prompt: "echo then count" });
    expect(JSON.parse(stripIdentityTag(r.content[0].text)).status).toBe("completed");
    expect(s.asked).toHaveLength(3);
  });
});

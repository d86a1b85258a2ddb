// Standing is re-read before each tool step of a long task: once the caller loses it, no further tool runs, and
// the receipt is a signed `failed` naming why, listing only what ran before. Direct mode checks before its tool.
import { describe, expect, it } from "vitest";
import { makeMotebit, peer } from "../helpers/motebit.js";
import { ScriptedLlm } from "../helpers/scripted-llm.js";
import { verifyReceipt } from "../../../src/protocol/index.js";
import type { Standing } from "../../../src/principal.js";
import { aiTask } from "./ai-fixture.js";
import type { Principal } from "../../../src/principal.js";

describe("standing lost while a task runs", () => {
  it("AI mode: the tool step after the loss does not run; the receipt is failed and says why", async () => {
    let blocked = false;
    const standing = (p: Principal): Standing => (blocked ? { ok: false, reason: "caller is blocked" } : { ok: true, principal: p });
    const llm = new ScriptedLlm({ tools: [{ name: "echo", input: { text: "one" } }] }, { tools: [{ name: "word_count", input: { text: "a b" } }] }, "done");
    const h = await makeMotebit({ llm, callerStanding: standing });
    const echo = h.m.registry.list("peer").find((t) => t.definition.name === "echo")!;
    const original = echo.handler;
    echo.handler = async (a, c) => {
      blocked = true; // the caller is blocked while its first tool runs
      return original(a, c);
    };
    const r = await aiTask(h, peer(), { prompt: "echo then count" });
    expect(r.status).toBe("failed");
    expect(r.result).toBe("Error: stopped: the caller lost its standing (caller is blocked)");
    expect(r.tools_used).toEqual(["echo"]);
    expect((await verifyReceipt(r)).valid).toBe(true);
    expect(h.m.audit.list().find((e) => e.tool === "word_count")?.outcome).toBe("denied");
  });

  it("a caller without standing gets a signed failed receipt and nothing runs (direct mode)", async () => {
    const h = await makeMotebit({ callerStanding: () => ({ ok: false, reason: "caller is blocked" }) });
    const r = await aiTask(h, peer(), { prompt: "hello" });
    expect(r.status).toBe("failed");
    expect(r.result).toBe("Error: not run: the caller lost its standing (caller is blocked)");
    expect(r.tools_used).toEqual([]);
    expect((await verifyReceipt(r)).valid).toBe(true);
    // Any other tool is refused outright.
    const echo = await h.call(peer(), "echo", { text: "x" });
    expect(echo.isError).toBe(true);
    expect(echo.content[0].text).toBe("Denied: the caller lost its standing (caller is blocked)");
  });
});

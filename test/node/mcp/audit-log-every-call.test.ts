import { describe, expect, it } from "vitest";
import { makeMotebit, owner, peer } from "../helpers/motebit.js";

describe("every call lands in the audit log", () => {
  it("records tool, caller, an args preview and the outcome for allowed, denied, approval, invalid, error and unknown-tool calls", async () => {
    const tools = [
      { definition: { name: "echo", description: "e", inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] }, risk: 0 }, handler: (a: any) => ({ ok: true, data: a.text }) },
      { definition: { name: "boom", description: "b", inputSchema: { type: "object" }, risk: 0 }, handler: () => ({ ok: false, error: "nope" }) },
    ];
    const h = await makeMotebit({ identity: "personal", tools });
    await h.call(peer(), "echo", { text: "a".repeat(500) });
    await h.call(peer("blocked", "bad"), "echo", { text: "x" });
    await h.call(peer(), "motebit_remember", { content: "x" });
    await h.call(peer(), "echo", {});
    await h.call(owner, "boom");
    await h.rpc(peer(), "tools/call", { name: "no_such_tool", arguments: {} });
    await h.rpc(peer(), "tools/call", { name: "motebit_memory_export", arguments: {} });
    const log = h.m.audit.list({ limit: 10 }).reverse();
    expect(log.map((e) => [e.tool, e.caller, e.outcome])).toEqual([
      ["echo", "peer:peer-a", "allowed"],
      ["echo", "peer:bad", "denied"],
      ["motebit_remember", "peer:peer-a", "approval_required"],
      ["echo", "peer:peer-a", "invalid"],
      ["boom", "owner", "error"],
      ["no_such_tool", "peer:peer-a", "invalid"],
      ["motebit_memory_export", "peer:peer-a", "invalid"],
    ]);
    expect(log[0].argsPreview.length).toBe(200);
  });
});

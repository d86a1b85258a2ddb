import { describe, expect, it } from "vitest";
import { formatToolData, invokeTool } from "../../../src/tools/invoke.js";
import type { ServedTool, ToolResult } from "../../../src/tools/types.js";

const tool = (handler: ServedTool["handler"]): ServedTool => ({
  definition: { name: "t", description: "d", inputSchema: { type: "object" }, risk: 0 },
  handler,
});
const live = () => new AbortController().signal;

describe("invokeTool", () => {
  it("passes args and returns a good result", async () => {
    expect(await invokeTool(tool((a) => ({ ok: true, data: { got: a.x } })), { x: 1 }, live())).toEqual({ ok: true, data: { got: 1 } });
  });

  it("turns a synchronous throw into ok:false with the message", async () => {
    const r = await invokeTool(tool(() => { throw new Error("disk on fire"); }), {}, live());
    expect(r).toEqual({ ok: false, error: "disk on fire" });
  });

  it("turns a rejected promise into ok:false with the message", async () => {
    expect(await invokeTool(tool(async () => Promise.reject(new TypeError("bad"))), {}, live())).toEqual({ ok: false, error: "bad" });
  });

  it("passes a tool's own failure through", async () => {
    expect(await invokeTool(tool(() => ({ ok: false, error: "not found" })), {}, live())).toEqual({ ok: false, error: "not found" });
  });

  it.each<[string, unknown, RegExp]>([
    ["undefined", undefined, /returned a malformed result/],
    ["a bare string", "hello", /returned a malformed result/],
    ["ok as a string", { ok: "yes", data: 1 }, /returned a malformed result/],
    ["ok:false without an error", { ok: false }, /failed without an error message/],
    ["data that cannot be JSON", { ok: true, data: 10n }, /neither a string nor JSON-serialisable/],
    ["data that is a function", { ok: true, data: () => 1 }, /neither a string nor JSON-serialisable/],
  ])("refuses a malformed return: %s", async (_, returned, message) => {
    const r = await invokeTool(tool(() => returned as ToolResult), {}, live());
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error).toMatch(message);
  });

  it("resolves aborted when the signal aborts, even if the handler ignores it", async () => {
    const c = new AbortController();
    const started = Date.now();
    const pending = invokeTool(tool(() => new Promise(() => {})), {}, c.signal);
    setTimeout(() => c.abort(), 20);
    expect(await pending).toEqual({ ok: false, error: "aborted" });
    expect(Date.now() - started).toBeLessThan(1000);
  });

  it("does not call the handler when the signal is already aborted", async () => {
    const c = new AbortController();
    c.abort();
    let called = false;
    expect(await invokeTool(tool(() => { called = true; return { ok: true, data: 1 }; }), {}, c.signal)).toEqual({ ok: false, error: "aborted" });
    expect(called).toBe(false);
  });

  it("hands the handler the signal it can observe", async () => {
    const c = new AbortController();
    let seen: AbortSignal | undefined;
    await invokeTool(tool((_, ctx) => { seen = ctx.signal; return { ok: true, data: 1 }; }), {}, c.signal);
    expect(seen).toBe(c.signal);
  });
});

describe("formatToolData", () => {
  it("keeps strings as they are and JSON-encodes the rest", () => {
    expect(formatToolData("plain\ntext")).toBe("plain\ntext");
    expect(formatToolData({ a: [1, "b"] })).toBe('{"a":[1,"b"]}');
    expect(formatToolData(42)).toBe("42");
    expect(formatToolData(null)).toBe("null");
  });
});

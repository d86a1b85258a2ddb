import { describe, expect, it } from "vitest";
import exampleTools from "../../../examples/tools/index.js";
import { invokeTool, NO_CLIENT } from "../../../src/tools/invoke.js";
import { ToolRegistry } from "../../../src/tools/registry.js";

const reg = ToolRegistry.fromModule(exampleTools);
const run = (name: string, args: Record<string, unknown>, signal = new AbortController().signal) =>
  invokeTool(reg.get(name, "owner")!, args, signal);

describe("example tools module", () => {
  it("loads and declares a risk for every tool", () => {
    expect(reg.list("owner").map((t) => [t.definition.name, reg.riskOf(t.definition.name)])).toEqual([
      ["echo", 0],
      ["word_count", 0],
      ["current_time", 0],
      ["slow", 1],
      ["read_note", 0],
    ]);
  });

  it("echo, word_count, current_time and read_note answer", async () => {
    expect(await run("echo", { text: "hi there" })).toEqual({ ok: true, data: "hi there" });
    expect(await run("word_count", { text: "  one two\nthree " })).toEqual({ ok: true, data: { words: 3 } });
    expect(await run("word_count", { text: "   " })).toEqual({ ok: true, data: { words: 0 } });
    const now = await run("current_time", {});
    expect(now.ok && Number.isNaN(Date.parse(String(now.data)))).toBe(false);
    expect(await run("read_note", { path: "todo.md" })).toEqual({ ok: true, data: 'note "todo.md": (demo tool; no note was read)' });
  });

  it("slow finishes its wait, or stops when aborted", async () => {
    expect(await run("slow", { ms: 5 })).toEqual({ ok: true, data: "waited 5ms" });
    expect(await run("slow", { ms: "5" })).toEqual({ ok: true, data: "waited 5ms" });
    expect(await run("slow", { ms: "soon" })).toEqual({ ok: false, error: "ms must be a whole number of milliseconds from 0 to 60000" });
    const c = new AbortController();
    const started = Date.now();
    setTimeout(() => c.abort(), 20);
    // Call the handler directly: this shows the tool itself honours the signal, not just invokeTool's race.
    const r = await reg.get("slow", "owner")!.handler({ ms: 10_000 }, { ...NO_CLIENT, signal: c.signal });
    expect(r).toEqual({ ok: false, error: "aborted" });
    expect(Date.now() - started).toBeLessThan(1000);
  });
});

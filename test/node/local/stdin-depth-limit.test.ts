// A line on stdin nested deeper than the HTTP hosts' limit gets their error (-32600, same text), and the next line is served.
import { afterAll, describe, expect, it } from "vitest";
import { MAX_JSON_DEPTH, tooDeepMessage } from "../../../src/mcp/json-depth.js";
import { nested } from "../../shared/hostile-requests.js";
import { initMotebit, runCli, tempDir } from "./helpers/local-cli.js";

describe("serve over stdio with a deeply nested line", () => {
  const tmp = tempDir();
  afterAll(() => tmp.cleanup());

  it("answers it with -32600 saying why, serves the line at the limit and the one after", async () => {
    const identity = await initMotebit(tmp.dir);
    const stdin = [
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } }),
      `{"jsonrpc":"2.0","id":2,"method":"ping","params":{"x":${nested(10_000)}}}`,
      `{"jsonrpc":"2.0","id":3,"method":"ping","params":{"x":${nested(MAX_JSON_DEPTH - 2)}}}`,
      JSON.stringify({ jsonrpc: "2.0", id: 4, method: "ping" }),
    ].join("\n") + "\n";
    const r = await runCli(["serve", "--identity", identity], { stdin, timeoutMs: 60_000 });
    expect(r.code).toBe(0);
    const messages = r.stdout.split("\n").filter(Boolean).map((l) => JSON.parse(l));
    expect(messages.map((m) => m.id).sort()).toEqual([1, 3, 4, null].sort());
    expect(messages.find((m) => m.id === null).error).toEqual({ code: -32600, message: tooDeepMessage() });
  });
});

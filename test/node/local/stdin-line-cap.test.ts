// A huge line on stdin costs bounded memory, gets a JSON-RPC error, and the next line is served cleanly.
import { Readable } from "node:stream";
import { afterAll, describe, expect, it } from "vitest";
import { LineCap, MAX_STDIN_LINE_BYTES } from "../../../local-stdio/src/serve/line-cap.js";
import { initMotebit, runCli, tempDir } from "./helpers/local-cli.js";

/** What comes out of the cap, as text (the reader may join pushed lines into one chunk). */
async function through(cap: LineCap, chunks: string[]): Promise<string> {
  let out = "";
  for await (const piece of Readable.from(chunks.map((c) => Buffer.from(c))).pipe(cap)) out += piece.toString();
  return out;
}

describe("LineCap", () => {
  it("passes whole lines through, however the chunks split them", async () => {
    let dropped = 0;
    expect(await through(new LineCap(10, () => dropped++), ["ab", "c\nde", "f\n", "g\nh"])).toBe("abc\ndef\ng\nh");
    expect(dropped).toBe(0);
  });

  it("drops a line over the cap, whole, and reports it once when it ends", async () => {
    let dropped = 0;
    const out = await through(new LineCap(5, () => dropped++), ["ok\n", "0123", "456789", "abc\n", "next\n"]);
    expect(out).toBe("ok\nnext\n");
    expect(dropped).toBe(1);
  });

  it("a line of exactly the cap (newline included) still passes", async () => {
    let dropped = 0;
    expect(await through(new LineCap(5, () => dropped++), ["1234\n", "12345\n"])).toBe("1234\n");
    expect(dropped).toBe(1);
  });
});

describe("serve over stdio with an oversized line", () => {
  const tmp = tempDir();
  afterAll(() => tmp.cleanup());

  it("answers it with -32600 and serves the next request", async () => {
    const identity = await initMotebit(tmp.dir);
    const huge = JSON.stringify({ jsonrpc: "2.0", id: 2, method: "ping", params: { pad: "x".repeat(MAX_STDIN_LINE_BYTES) } });
    const stdin = [
      JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "raw", version: "1" } } }),
      huge,
      JSON.stringify({ jsonrpc: "2.0", id: 3, method: "ping" }),
    ].join("\n") + "\n";
    const r = await runCli(["serve", "--identity", identity], { stdin, timeoutMs: 60_000 });
    expect(r.code).toBe(0);
    const messages = r.stdout.split("\n").filter(Boolean).map((l) => JSON.parse(l));
    expect(messages.map((m) => m.id)).toEqual([1, null, 3]);
    expect(messages[1].error).toEqual({
      code: -32600,
      message: `Invalid Request: a line on stdin is longer than ${MAX_STDIN_LINE_BYTES} bytes; it was dropped`,
    });
    expect(messages[2].result).toEqual({});
  });
});

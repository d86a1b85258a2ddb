// motebit-local verify takes an MCP reply as it came (JSON-RPC, SSE, or a bare tool result), finds the receipt escaped
// in its text and verifies it; --save writes that receipt as plain JSON, only when it is valid.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it, vi } from "vitest";
import { withIdentityTag } from "../../../src/protocol/index.js";
import { demo, identityFile, receipt } from "../protocol/fixtures.js";
import { runCli, tempDir, verdictOf } from "./run-cli.js";

vi.setConfig({ testTimeout: 90_000 });

const VALID = { valid: true, type: "receipt", signer: demo.did_key, motebit_id: demo.sovereign_motebit_id, sovereign: true, errors: [] };
const toolResult = (r: unknown, tagged = true) => {
  const text = JSON.stringify(r);
  return { content: [{ type: "text", text: tagged ? withIdentityTag(text, demo.sovereign_motebit_id, demo.public_key_hex) : text }] };
};
const reply = (result: unknown) => JSON.stringify({ jsonrpc: "2.0", id: 2, result });

describe("verify reads a receipt out of an MCP reply", () => {
  it("a JSON-RPC tools/call reply, with or without the identity tag line", async () => {
    for (const tagged of [true, false]) {
      const r = await runCli(["verify", "-"], { input: reply(toolResult(receipt, tagged)) });
      expect(r.code, r.stderr).toBe(0);
      expect(verdictOf(r)).toEqual(VALID);
    }
  });

  it("an SSE stream (progress notification, then the reply), a bare tool result, a resources/read reply", async () => {
    const progress = JSON.stringify({ jsonrpc: "2.0", method: "notifications/progress", params: { progressToken: 1, progress: 1 } });
    const sse = `event: message\ndata: ${progress}\n\nevent: message\ndata: ${reply(toolResult(receipt))}\n\n`;
    const read = reply({ contents: [{ uri: "motebit://receipts/x", mimeType: "application/json", text: JSON.stringify(receipt) }] });
    for (const input of [sse, JSON.stringify(toolResult(receipt), null, 2), read]) {
      const r = await runCli(["verify", "-"], { input });
      expect(r.code, r.stdout + r.stderr).toBe(0);
      expect(verdictOf(r)).toEqual(VALID);
    }
  });

  it("a tampered receipt inside a reply is invalid (exit 1)", async () => {
    const r = await runCli(["verify", "-"], { input: reply(toolResult({ ...receipt, result: "forged" })) });
    expect(r.code).toBe(1);
    expect(verdictOf(r)).toMatchObject({ valid: false, type: "receipt" });
  });

  it("a JSON-RPC error, a tool error and a reply without a receipt say so (exit 2)", async () => {
    const cases: [string, RegExp][] = [
      [JSON.stringify({ jsonrpc: "2.0", id: 2, error: { code: -32602, message: "Unknown tool" } }), /JSON-RPC error: -32602 Unknown tool/],
      [reply({ ...toolResult("boom"), isError: true }), /the tool answered with an error: "boom"/],
      [reply({ content: [{ type: "text", text: withIdentityTag("Hello, Ada!", demo.sovereign_motebit_id, demo.public_key_hex) }] }), /holds no signed artefact/],
    ];
    for (const [input, message] of cases) {
      const r = await runCli(["verify", "-"], { input });
      expect(r.code).toBe(2);
      const v = verdictOf(r);
      expect(v.type).toBe("unknown");
      expect((v.errors as string[])[0]).toMatch(message);
    }
  });
});

describe("verify --save", () => {
  it("writes the valid receipt from a reply as plain JSON that verifies on its own", async () => {
    const dir = tempDir();
    const out = join(dir, "receipt.json");
    const r = await runCli(["verify", "-", "--save", out], { input: reply(toolResult(receipt)) });
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toContain(`saved the receipt to ${out}`);
    expect(JSON.parse(readFileSync(out, "utf8"))).toEqual(receipt);
    const again = await runCli(["verify", out]);
    expect(verdictOf(again)).toEqual(VALID);
  });

  it("writes nothing for an invalid receipt or an artefact that is not a receipt", async () => {
    const dir = tempDir();
    const out = join(dir, "receipt.json");
    const bad = await runCli(["verify", "-", "--save", out], { input: reply(toolResult({ ...receipt, result: "forged" })) });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("not written: not every artefact is valid");
    expect(existsSync(out)).toBe(false);
    const identity = await runCli(["verify", "-", "--save", out], { input: identityFile });
    expect(identity.code).toBe(1);
    expect(identity.stderr).toContain("not written: the input is not only receipts");
    expect(existsSync(out)).toBe(false);
  });
});

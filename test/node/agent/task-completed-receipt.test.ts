import { describe, expect, it } from "vitest";
import { sha256Hex, verifyReceipt } from "../../../src/protocol/index.js";
import { fixtureSigner, task } from "./task-fixture.js";

describe("a completed task", () => {
  it("yields a signed receipt that verifies, with every field filled from the run", async () => {
    const r = await task({ prompt: "one two three", requiredCapabilities: ["word_count"] });
    const signer = await fixtureSigner();
    expect(r).toMatchObject({
      device_id: "device-1",
      submitted_at: 1_700_000_000_000,
      completed_at: 1_700_000_000_007,
      status: "completed",
      result: '{"words":3}',
      tools_used: ["word_count"],
      memories_formed: 0,
      invocation_origin: "agent-to-agent",
      public_key: signer.publicKeyHex,
      suite: "motebit-jcs-ed25519-b64-v1",
    });
    expect(r.task_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(r.prompt_hash).toBe(await sha256Hex("one two three"));
    expect(r.result_hash).toBe(await sha256Hex('{"words":3}'));
    expect(r).not.toHaveProperty("relay_task_id");
    expect(r).not.toHaveProperty("delegated_scope");
    expect(r).not.toHaveProperty("delegation_receipts");
    const verdict = await verifyReceipt(r, { checkResultHash: true });
    expect(verdict.errors).toEqual([]);
    expect(verdict.valid).toBe(true);
    expect(verdict.sovereign).toBe(true);
  });

  it("hands the prompt to the first served tool when no capability is named", async () => {
    const r = await task({ prompt: "é — ünïcode ✓" });
    expect(r.tools_used).toEqual(["echo"]);
    expect(r.result).toBe("é — ünïcode ✓");
    expect(r.prompt_hash).toBe(await sha256Hex(new TextEncoder().encode("é — ünïcode ✓")));
  });

  it("gets a fresh task_id every time and carries the given origin and memories count", async () => {
    const a = await task();
    const b = await task({ invocationOrigin: "user-tap", memoriesFormed: 2 });
    expect(a.task_id).not.toBe(b.task_id);
    expect(b.invocation_origin).toBe("user-tap");
    expect(b.memories_formed).toBe(2);
    expect((await verifyReceipt(b)).valid).toBe(true);
  });
});

import { expect, it } from "vitest";
import { verifyReceipt } from "../../../src/protocol/index.js";
import { task } from "./task-fixture.js";

it("any change to any signed field makes the receipt invalid", async () => {
  const r = await task({ relayTaskId: "relay-9", delegatedScope: "echo,word_count" });
  expect((await verifyReceipt(r)).valid).toBe(true);
  const changes: Record<string, unknown> = {
    task_id: "00000000-0000-4000-8000-000000000000",
    motebit_id: "someone-else",
    device_id: "device-2",
    submitted_at: r.submitted_at + 1,
    completed_at: r.completed_at + 1,
    status: "failed",
    result: r.result + "!",
    tools_used: ["word_count"],
    memories_formed: 1,
    prompt_hash: "0".repeat(64),
    result_hash: "f".repeat(64),
    relay_task_id: "relay-10",
    delegated_scope: "*",
    invocation_origin: "user-tap",
  };
  for (const [field, value] of Object.entries(changes)) {
    const forged = { ...r, [field]: value };
    expect((await verifyReceipt(forged)).valid, `changing ${field} must break the signature`).toBe(false);
  }
  const { relay_task_id: _dropped, ...withoutRelay } = r;
  expect((await verifyReceipt(withoutRelay)).valid, "dropping relay_task_id must break the signature").toBe(false);
});

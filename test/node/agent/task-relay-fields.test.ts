import { expect, it } from "vitest";
import { verifyReceipt } from "../../../src/protocol/index.js";
import { task } from "./task-fixture.js";

it("relay_task_id and delegated_scope are carried inside the signature", async () => {
  const r = await task({ relayTaskId: "relay-task-42", delegatedScope: "echo" });
  expect(r.relay_task_id).toBe("relay-task-42");
  expect(r.delegated_scope).toBe("echo");
  expect((await verifyReceipt(r)).valid).toBe(true);
  expect((await verifyReceipt({ ...r, relay_task_id: "relay-task-43" })).valid).toBe(false);
  expect((await verifyReceipt({ ...r, delegated_scope: "*" })).valid).toBe(false);
});

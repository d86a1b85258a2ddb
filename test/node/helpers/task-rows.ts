// A task's row as another host on the same database finds it: waited for until it leaves `working`.
import { McpTaskStore } from "../../../src/mcp/engine/mcp-task-store.js";
import { systemClock, type SqlPort } from "../../../src/ports.js";
import type { ExecutionReceipt } from "../../../src/protocol/index.js";
import { receiptOfResult } from "../../shared/receipt-of-result.js";

/** Waits (up to 5 s) for the task row to leave `working`; it must have completed; returns the receipt it ended with. */
export async function receiptOfTask(sql: SqlPort, taskId: string): Promise<ExecutionReceipt> {
  const store = new McpTaskStore(sql, systemClock);
  for (let i = 0; i < 200; i++) {
    const t = store.get(taskId)!;
    if (t.status !== "working") {
      if (t.status !== "completed") throw new Error(`task ${taskId} ended ${t.status}, not completed`);
      return receiptOfResult(t.result);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error(`task ${taskId} stayed working`);
}

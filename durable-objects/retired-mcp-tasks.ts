// The task ids of retired incarnations of a fleet name, kept in the object's memory only (retiring deletes all its
// storage, and a retired motebit leaves nothing behind): so a caller polling a task the retirement ended is told
// so by the motebit now at that name, instead of "unknown task". Bounded; forgotten when the object is evicted.
import type { SqlPort } from "../src/index.js";

const KEPT = 4_096;

export class RetiredMcpTasks {
  private readonly keys = new Set<string>();

  /** Before the storage goes: every task the retiring motebit holds, newest kept when over the bound. */
  remember(sql: SqlPort): void {
    if (sql.all("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'mcp_tasks'").length === 0) return;
    const rows = sql.all<{ caller_id: string; task_id: string }>("SELECT caller_id, task_id FROM mcp_tasks ORDER BY created_at DESC LIMIT ?", KEPT);
    for (const r of rows.reverse()) {
      const key = `${r.caller_id}\n${r.task_id}`;
      this.keys.delete(key);
      this.keys.add(key);
    }
    for (const key of this.keys) {
      if (this.keys.size <= KEPT) break;
      this.keys.delete(key);
    }
  }

  has(caller: string, taskId: string): boolean {
    return this.keys.has(`${caller}\n${taskId}`);
  }
}

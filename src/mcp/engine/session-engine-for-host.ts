// The session engine as a host runs it: tasks kept as rows in the motebit's SQLite, and the tasks that were
// running when the host last stopped (their leases lapsed) started again. Both HTTP hosts and stdio start theirs here.
import { SessionEngine } from "./session-engine.js";
import type { MessageHandler } from "./message-handler.js";
import type { Clock, SqlPort } from "../../ports.js";
import { McpTasks, type McpTasksOptions } from "./mcp-tasks.js";
import { McpTaskStore } from "./mcp-task-store.js";

/** Creates the task table if missing. `o.host`: stdio is the owner's host, HTTP a peers' host. */
export function sessionEngineFor(sql: SqlPort, clock: Clock, motebit: MessageHandler, o: McpTasksOptions): SessionEngine {
  const store = new McpTaskStore(sql, clock);
  store.migrate();
  const tasks = new McpTasks(store, motebit, clock, o);
  tasks.resume();
  return new SessionEngine(motebit, tasks);
}

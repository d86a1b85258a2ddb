// The session engine as a host runs it: tasks kept as rows in the motebit's SQLite, and the tasks that were
// running when the host last stopped started again. Both HTTP hosts and stdio start theirs here.
import { SessionEngine } from "./session-engine.js";
import type { RpcHandler } from "./rpc-handler.js";
import type { Clock, SqlPort } from "../../ports.js";
import { McpTasks } from "./mcp-tasks.js";
import { TaskStore } from "./task-store.js";

/** Creates the task table if missing. */
export function sessionEngineFor(sql: SqlPort, clock: Clock, rpc: RpcHandler): SessionEngine {
  const store = new TaskStore(sql, clock);
  store.migrate();
  const tasks = new McpTasks(store, rpc);
  tasks.resume();
  return new SessionEngine(rpc, tasks);
}

// motebit-edge, the package: what a user's own Worker imports (docs/tools-and-resources.md).
export { createMotebitWorker, type MotebitWorkerOptions } from "./create-worker.js";
export type { EdgeEnv } from "./env.js";
export type { ServedTool, ToolContext, ToolDefinition, ToolResult } from "../src/index.js";

import type { SyntheticTool } from "./types.js";
import { identityTool } from "./identity.js";
import { toolsTool } from "./tools.js";
import { queryTool } from "./query.js";
import { rememberTool } from "./remember.js";
import { recallTool } from "./recall.js";
import { taskTool } from "./task.js";
import { serviceListingTool } from "./service-listing.js";
import { credentialsTool } from "./credentials.js";
import { memoryExportTool, memoryForgetTool, memoryListTool } from "./memory-admin.js";

/** The motebit/agent-mcp-surface@1.0 tools, then the owner's memory housekeeping, in listing order. */
export const SYNTHETIC_TOOLS: readonly SyntheticTool[] = [
  identityTool,
  toolsTool,
  queryTool,
  rememberTool,
  recallTool,
  taskTool,
  serviceListingTool,
  credentialsTool,
  memoryListTool,
  memoryForgetTool,
  memoryExportTool,
];

export type { SyntheticTool } from "./types.js";

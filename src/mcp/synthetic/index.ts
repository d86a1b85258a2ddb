import type { SyntheticTool } from "./types.js";
import { identityTool } from "./identity.js";
import { toolsTool } from "./tools.js";
import { queryTool } from "./query.js";
import { rememberTool } from "./remember.js";
import { recallTool } from "./recall.js";
import { taskTool } from "./task.js";
import { serviceListingTool } from "./service-listing.js";
import { credentialsTool } from "./credentials.js";

/** The motebit/agent-mcp-surface@1.0 tools, in listing order. */
export const SYNTHETIC_TOOLS: readonly SyntheticTool[] = [
  identityTool,
  toolsTool,
  queryTool,
  rememberTool,
  recallTool,
  taskTool,
  serviceListingTool,
  credentialsTool,
];

export type { SyntheticTool } from "./types.js";

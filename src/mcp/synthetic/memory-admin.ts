// The owner's memory housekeeping over stdio: list, forget, export. Never offered over HTTP.
import type { SyntheticTool } from "./types.js";
import { always } from "./types.js";
import { okJson, refused } from "../tool-outcome.js";
import { shareableWithHost } from "../../memory/scope.js";
import { echo } from "../../bounded/echo.js";

export const memoryListTool: SyntheticTool = {
  name: "motebit_memory_list",
  description:
    "Owner only: lists memories newest first (scope \"owner\" or \"peer:<caller>\"; medical, financial and secret ones are left out).",
  inputSchema: {
    type: "object",
    properties: {
      scope: { type: "string", description: 'Only this scope, e.g. "owner" or "peer:static".' },
      limit: { type: "integer", description: "Page size, 1–500 (default 50)." },
      offset: { type: "integer", description: "Rows to skip." },
      include_forgotten: { type: "boolean", description: "Also list tombstones." },
    },
  },
  risk: 1,
  audience: "owner",
  oauthScope: "motebit:remember",
  offered: always,
  async run(args, m) {
    return okJson(
      shareableWithHost(
        m.memory.list({
          scope: args.scope as string | undefined,
          limit: args.limit as number | undefined,
          offset: args.offset as number | undefined,
          includeForgotten: args.include_forgotten === true,
        }),
      ),
    );
  },
};

export const memoryForgetTool: SyntheticTool = {
  name: "motebit_memory_forget",
  description: "Owner only: forgets a memory by node_id (its content and vector are erased now; a tombstone stays until retention).",
  inputSchema: {
    type: "object",
    properties: { node_id: { type: "string", description: "The memory to forget." } },
    required: ["node_id"],
  },
  risk: 2,
  audience: "owner",
  oauthScope: "motebit:remember",
  offered: always,
  async run(args, m) {
    const forgotten = await m.memory.forget(args.node_id as string);
    return forgotten ? okJson({ node_id: args.node_id, forgotten: true }) : refused(`No live memory has node_id "${echo(args.node_id)}"`);
  },
};

export const memoryExportTool: SyntheticTool = {
  name: "motebit_memory_export",
  description:
    "Owner only: exports the memory graph as JSON (nodes with their edges, tombstones included; medical, financial and secret nodes are left out — `motebit-local memory export` has everything).",
  inputSchema: { type: "object", properties: {} },
  risk: 1,
  audience: "owner",
  oauthScope: "motebit:remember",
  offered: always,
  async run(_args, m) {
    return okJson(shareableWithHost(m.memory.exportAll()));
  },
};

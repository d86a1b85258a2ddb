import type { SyntheticTool } from "./types.js";
import { embedderReady } from "./embedder-ready.js";
import { always } from "./types.js";
import { okJson, toolError } from "../tool-outcome.js";
import { isOwner } from "../../principal.js";
import { OWNER_RECALL_EXCLUDED } from "../../memory/scope.js";
import { recallTraced } from "../../telemetry/memory-span.js";

export const RECALL_REFUSAL =
  "Denied: motebit_recall serves the owner's memories only to the owner (the local stdio session). HTTP callers are never the owner.";

export const recallTool: SyntheticTool = {
  name: "motebit_recall",
  description:
    "Searches the motebit's memory graph by meaning. Owner only: over stdio it returns your memories (never medical, financial or secret ones); every HTTP caller is refused.",
  inputSchema: {
    type: "object",
    properties: {
      query: { type: "string", description: "What to look for." },
      limit: { type: "number", description: "How many results (default 10, at most 50)." },
    },
    required: ["query"],
  },
  risk: 1,
  audience: "both",
  offered: always,
  // Enforced by tools/call from this declaration: run() is reached by the owner only.
  refusal: (_m, p) => (isOwner(p) ? null : RECALL_REFUSAL),
  async run(args, m, c) {
    try {
      await embedderReady(m, c, "motebit_recall");
      const hits = await recallTraced(c.trace, () =>
        m.memory.recall({
          query: args.query as string,
          limit: args.limit as number | undefined,
          scopes: ["owner"],
          excludeSensitivities: OWNER_RECALL_EXCLUDED,
        }),
      );
      return okJson(
        hits.map((h) => ({
          content: h.content,
          confidence: h.confidence,
          similarity: h.similarity,
          half_life_days: h.half_life_days,
          memory_type: h.memory_type,
          created_at: h.created_at,
        })),
      );
    } catch (e) {
      return toolError(`Error: ${(e as Error).message}`);
    }
  },
};

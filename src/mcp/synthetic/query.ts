import type { SyntheticTool } from "./types.js";
import { always } from "./types.js";
import { okJson, toolError } from "../tool-outcome.js";
import { isOwner } from "../../principal.js";
import { OWNER_RECALL_EXCLUDED } from "../../memory/scope.js";
import { aiTurnTools, publicContext, turnMemories } from "../../agent/turn-context.js";
import { aiModules } from "../../agent/ai-modules.js";

// Said the same by both hosts, so in settings both read (the edge has no --direct flag; motebit-local's wins).
export const NO_PROVIDER =
  "Error: motebit_query needs a model provider and none is configured for this motebit: set ANTHROPIC_API_KEY, or MOTEBIT_PROVIDER (ollama; workers-ai at the edge), with MOTEBIT_MODE unset or ai (and, for motebit-local, no --direct flag). motebit_task works without one, in direct mode.";


export const queryTool: SyntheticTool = {
  name: "motebit_query",
  description:
    "Sends a message through the motebit's AI turn. Over stdio it is the owner's turn, with the owner's memories; over HTTP it is a peer's turn, with none of the owner's memories or private context, and memories_formed is 0.",
  inputSchema: {
    type: "object",
    properties: { message: { type: "string", description: "What to ask." } },
    required: ["message"],
  },
  risk: 2,
  audience: "both",
  offered: always,
  // Enforced by tools/call from this declaration: run() is reached only with a model.
  refusal: (m) => (m.llm === null ? NO_PROVIDER : null),
  async run(args, m, c) {
    const owner = isOwner(c.principal);
    // The AI SDK loads only when a model is configured: direct mode never pays for it.
    const { runQueryTurn, newMeter, startBudget } = await aiModules();
    const turnTools = aiTurnTools(m, c.principal);
    const meter = newMeter();
    const budget = startBudget(m.taskTimeoutMs, c.signal);
    try {
      const formation = turnMemories(m, c.principal);
      const turn = await runQueryTurn({
        message: args.message as string,
        llm: m.llm!,
        memory: m.memory,
        publicContext: publicContext(m, c.principal),
        scopes: [formation.scope],
        excludeSensitivities: OWNER_RECALL_EXCLUDED,
        provenance: formation.provenance,
        sourceId: formation.sourceId,
        perTurnLimit: formation.perTurnLimit,
        confidenceThreshold: formation.confidenceThreshold,
        tools: turnTools.tools,
        offered: turnTools.offered,
        gate: turnTools.gate,
        onToolCall: turnTools.onToolCall,
        log: turnTools.log,
        meter,
        signal: budget.signal,
        trace: c.trace,
      });
      turnTools.recordTurn(meter, true);
      // A peer's turn may leave peer-marked memories behind, but it never reports them (product document).
      return okJson({ response: turn.response, memories_formed: owner ? turn.stored : 0 });
    } catch (e) {
      turnTools.recordTurn(meter, false);
      return toolError(budget.errorText(e));
    } finally {
      budget.end();
    }
  },
};

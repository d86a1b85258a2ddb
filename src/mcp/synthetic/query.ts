import type { SyntheticTool } from "./types.js";
import { always } from "./types.js";
import { okJson, toolError } from "../tool-outcome.js";
import { isOwner } from "../../principal.js";
import { memoryScopeOf, OWNER_RECALL_EXCLUDED, peerSourceOf } from "../memory-scope.js";
import { runQueryTurn } from "../../agent/query-turn.js";
import type { MotebitContext } from "../context.js";
import type { Principal } from "../../principal.js";

export const NO_PROVIDER =
  "Error: motebit_query needs a model provider and none is configured for this motebit (motebit-local: set ANTHROPIC_API_KEY and drop --direct). motebit_task works without one, in direct mode.";

/** What any caller's turn may see: identity, persona, the tools it may use, the model. Never owner-private context. */
function publicContext(m: MotebitContext, p: Principal): string {
  const doc = m.identityDoc;
  const name = doc?.service_name ?? "a motebit";
  const tools = m.callableTools(p).map((t) => `${t.name} (${t.risk_name})`).join(", ");
  return [
    `You are ${name}, motebit ${m.motebitId} (${m.type}), key ${m.did}.`,
    doc?.service_description ? `About you: ${doc.service_description}` : "",
    `Tools this caller may use: ${tools || "none"}.`,
    `You run on model ${m.llm?.id ?? "none"}.`,
    isOwner(p) ? "You are talking with your owner." : "You are talking with another agent, not your owner.",
  ]
    .filter(Boolean)
    .join("\n");
}

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
  offered: always,
  refusal: (m) => (m.llm === null ? NO_PROVIDER : null),
  async run(args, m, c) {
    if (m.llm === null) return toolError(NO_PROVIDER);
    const owner = isOwner(c.principal);
    try {
      const turn = await runQueryTurn({
        message: args.message as string,
        llm: m.llm,
        memory: m.memory,
        publicContext: publicContext(m, c.principal),
        scopes: [memoryScopeOf(c.principal)],
        excludeSensitivities: OWNER_RECALL_EXCLUDED,
        provenance: owner ? "owner" : "peer_agent",
        sourceId: peerSourceOf(c.principal),
        perTurnLimit: m.identityDoc?.memory.per_turn_limit ?? 5,
        signal: c.signal,
      });
      // A peer's turn may leave peer-marked memories behind, but it never reports them (product document).
      return okJson({ response: turn.response, memories_formed: owner ? turn.stored : 0 });
    } catch (e) {
      return toolError(`Error: ${(e as Error).message}`);
    }
  },
};

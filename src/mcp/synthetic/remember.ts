import type { SyntheticTool } from "./types.js";
import { embedderReady } from "./embedder-ready.js";
import { always } from "./types.js";
import { okJson, refused, toolError } from "../tool-outcome.js";
import { parseSensitivity, SENSITIVITIES } from "../../memory/sensitivity.js";
import { isOwner } from "../../principal.js";
import { peerSourceOf } from "../../memory/scope.js";
import { echo } from "../../bounded/echo.js";

export const rememberTool: SyntheticTool = {
  name: "motebit_remember",
  description:
    'Stores a memory in the motebit\'s semantic graph. External callers may store only sensitivity "none" (the default for them).',
  inputSchema: {
    type: "object",
    properties: {
      content: { type: "string", description: "The fact to remember." },
      sensitivity: { type: "string", description: 'One of none, personal, medical, financial, secret. Peers: "none" only.' },
    },
    required: ["content"],
  },
  risk: 2,
  audience: "both",
  oauthScope: "motebit:remember",
  offered: always,
  async run(args, m, c) {
    const raw = args.sensitivity;
    const owner = isOwner(c.principal);
    const fallback = owner ? (m.identityDoc?.privacy.default_sensitivity ?? "none") : "none";
    const requested = raw === undefined ? fallback : raw;
    const sensitivity = parseSensitivity(requested);
    // An allowlist, not a blocklist: for a peer anything but the exact string "none" is refused.
    if (!owner && sensitivity !== "none") {
      return refused(`Denied: external callers cannot store memories with sensitivity "${echo(requested)}"`);
    }
    if (sensitivity === null) {
      return refused(`Invalid sensitivity "${echo(requested)}": expected one of ${SENSITIVITIES.join(", ")}`);
    }
    try {
      await embedderReady(m, c, "motebit_remember");
      const stored = await m.memory.remember({
        content: args.content as string,
        sensitivity,
        provenance: owner ? "owner" : "peer_agent",
        scope: c.view.memoryScope,
        sourceId: peerSourceOf(c.principal),
        memoryType: "semantic",
      });
      return okJson({ node_id: stored.node_id });
    } catch (e) {
      return toolError(`Error: ${(e as Error).message}`);
    }
  },
};

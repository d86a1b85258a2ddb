// How an AI turn forms memories (motebit_query and motebit_task alike): the model marks durable facts on their own
// lines after its answer; the identity file's governance keeps at most perTurnLimit of them, none below the
// confidence threshold and none that looks like a credential. Each is stored in the turn's scope, marked with
// whose turn it was.
import type { MemoryStore } from "../memory/store.js";
import { looksSecret } from "../memory/secret-detector.js";

/** "MEMORY: fact" or "MEMORY (0.8): fact", one per line after the answer. */
const MEMORY_LINE = /^\s*MEMORY\s*(?:\(\s*([01](?:\.\d+)?)\s*\))?\s*:\s*(.+?)\s*$/;

export interface MemoryFormation {
  memory: MemoryStore;
  /** Where the turn's memories go (the principal's scope). */
  scope: string;
  provenance: "owner" | "peer_agent";
  sourceId?: string;
  perTurnLimit: number;
  /** Facts the model rates below this are not kept. */
  confidenceThreshold: number;
  /**
   * The memories recalled into the turn, with their similarity to its message: each memory the turn forms is
   * linked to them ("informed_by"), so the graph records what a new memory was formed from.
   */
  recalled?: { node_id: string; similarity: number }[];
}

/** What the system prompt adds so the model marks facts worth keeping. */
export function memoryInstruction(perTurnLimit: number): string {
  return (
    `If the exchange contains a durable fact worth remembering, add it after your answer on its own ` +
    `line as "MEMORY (<confidence 0-1>): <fact>" (at most ${perTurnLimit}). Never put credentials in a memory.`
  );
}

/**
 * Splits the model's text into the answer and the facts it marked; stores the facts governance keeps (none when
 * `f` is null: a turn with no scope to write to).
 */
export async function formMemories(text: string, f: MemoryFormation | null): Promise<{ answer: string; stored: number }> {
  const facts: { text: string; confidence: number | undefined }[] = [];
  const answer: string[] = [];
  for (const line of text.split("\n")) {
    const m = MEMORY_LINE.exec(line);
    if (m) facts.push({ text: m[2], confidence: m[1] === undefined ? undefined : Number(m[1]) });
    else answer.push(line);
  }
  if (f === null) return { answer: answer.join("\n").trim(), stored: 0 };
  const kept = facts.filter((x) => (x.confidence ?? 1) >= f.confidenceThreshold && !looksSecret(x.text)).slice(0, f.perTurnLimit);
  for (const fact of kept) {
    const { node_id } = await f.memory.remember({
      content: fact.text,
      sensitivity: "none",
      provenance: f.provenance,
      scope: f.scope,
      sourceId: f.sourceId,
      memoryType: "episodic",
      ...(fact.confidence !== undefined ? { confidence: Math.min(fact.confidence, 1) } : {}),
    });
    for (const r of f.recalled ?? []) {
      try {
        f.memory.link(node_id, r.node_id, "informed_by", r.similarity);
      } catch {
        // The recalled memory was forgotten while the turn ran: there is nothing left to link to.
      }
    }
  }
  return { answer: answer.join("\n").trim(), stored: kept.length };
}

// The shape of a memory node as callers see it. Rows live in memory_nodes (schema.ts); embeddings never
// leave the store through these types.
import type { Sensitivity } from "./sensitivity.js";

/** Who wrote a memory: the owner, another agent (anything a non-owner wrote), or a tool's output. */
export type Provenance = "owner" | "peer_agent" | "tool_derived";
export const PROVENANCES: readonly Provenance[] = Object.freeze(["owner", "peer_agent", "tool_derived"]);

export type MemoryType = "semantic" | "episodic";
export const MEMORY_TYPES: readonly MemoryType[] = Object.freeze(["semantic", "episodic"]);

/** One recall result. `similarity` is the raw cosine between query and memory, not the ranking score. */
export interface RecallHit {
  node_id: string;
  content: string;
  confidence: number;
  similarity: number;
  half_life_days: number;
  memory_type: MemoryType;
  created_at: number;
  sensitivity: Sensitivity;
  provenance: Provenance;
}

/** A node as listed or exported for the owner: every column but the embedding. */
export interface MemoryRecord {
  node_id: string;
  content: string;
  sensitivity: Sensitivity;
  provenance: Provenance;
  source_id: string | null;
  scope: string;
  memory_type: MemoryType;
  confidence: number;
  half_life_days: number;
  created_at: number;
  last_accessed_at: number;
  /** Set when the owner forgot the node; its content is erased at that moment. */
  forgotten_at: number | null;
}

export interface MemoryEdge {
  from_id: string;
  to_id: string;
  relation: string;
  weight: number;
  created_at: number;
}

/** An exported node carries its outgoing edges so the export is one self-contained array. */
export interface ExportedMemory extends MemoryRecord {
  edges: { to_id: string; relation: string; weight: number; created_at: number }[];
}

// The bindings of the workerd-memory project (see vitest.memory.config.ts and wrangler.memory.toml).
import { env as cfEnv } from "cloudflare:test";
import type { VectorizeBinding } from "../../../src/memory/index-vectorize.js";
import type { WorkersAiBinding } from "../../../src/memory/embedder-workers-ai.js";
import type { MemoryTestObject } from "./memory-test-object.js";
import { throwingBinding } from "../../doubles/rpc-result.js";

/** The double's binding: the Vectorize API plus test controls. */
export interface VectorizeDoubleBinding extends VectorizeBinding {
  insert(vectors: unknown): Promise<{ mutationId: string }>;
  getByIds(ids: string[]): Promise<{ id: string; values: number[]; namespace?: string; metadata?: Record<string, unknown> }[]>;
  describe(): Promise<{ dimensions: number; vectorCount: number; metric: string; processedUpToMutation: number }>;
  flush(): Promise<number>;
  snapshot(): Promise<{ id: string; namespace?: string; metadata?: Record<string, unknown> }[]>;
  calls(): Promise<{ upsert: number[]; insert: number[]; deleteByIds: number[]; query: { topK: number; namespace?: string; filter?: unknown; returnMetadata?: unknown; returnValues?: unknown }[] }>;
  reset(): Promise<void>;
}

export interface MemoryTestEnv {
  MEMORY_TEST: DurableObjectNamespace<MemoryTestObject>;
  /** 768-dim index with metadata indexes on scope and sensitivity, as production needs. */
  VECTORIZE: VectorizeDoubleBinding;
  /** 256-dim index (local embedder vectors) with the same metadata indexes. */
  VECTORIZE_LOCAL: VectorizeDoubleBinding;
  /** 256-dim index created without metadata indexes: a misconfiguration tests can show. */
  VECTORIZE_NO_METADATA_INDEXES: VectorizeDoubleBinding;
  /** Eventually consistent 256-dim index: mutations apply on flush(). */
  VECTORIZE_EVENTUAL: VectorizeDoubleBinding;
  AI: WorkersAiBinding & { calls(): Promise<{ model: string; batch: number }[]> };
}

const raw = cfEnv as unknown as Record<string, unknown>;
/** The bindings as code sees real ones: the doubles' RpcResults unwrapped into values and throws. */
export const env: MemoryTestEnv = {
  MEMORY_TEST: raw.MEMORY_TEST as MemoryTestEnv["MEMORY_TEST"],
  VECTORIZE: throwingBinding(raw.VECTORIZE),
  VECTORIZE_LOCAL: throwingBinding(raw.VECTORIZE_LOCAL),
  VECTORIZE_NO_METADATA_INDEXES: throwingBinding(raw.VECTORIZE_NO_METADATA_INDEXES),
  VECTORIZE_EVENTUAL: throwingBinding(raw.VECTORIZE_EVENTUAL),
  AI: throwingBinding(raw.AI),
};

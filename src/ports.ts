// The small ports through which a host adapts the platform-neutral core.
// Both hosts implement them: the Durable Object (ctx.storage.sql, alarms) and motebit-local (node:sqlite, timers).

import type { LanguageModel } from "ai";

/** A value SQLite accepts as a bound parameter or returns in a row. */
export type SqlValue = string | number | null | Uint8Array | ArrayBuffer;

/** Synchronous SQLite, as both ctx.storage.sql and node:sqlite are. */
export interface SqlPort {
  /** Runs a statement and returns every row as a plain object. */
  all<T = Record<string, SqlValue>>(sql: string, ...params: SqlValue[]): T[];
  /** Runs a statement; returns how many rows it changed. */
  run(sql: string, ...params: SqlValue[]): { changes: number };
  /** Runs fn atomically: all of its writes land, or none do. */
  transaction<T>(fn: () => T): T;
}

export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/** Turns text into a fixed-length, L2-normalised vector. */
export interface Embedder {
  readonly id: string;
  readonly dimensions: number;
  embed(texts: string[]): Promise<Float32Array[]>;
  /**
   * For an embedder whose model loads lazily: resolves once it is loaded (starting the load if needed), calling
   * onProgress now and then while it waits. Absent: always ready.
   */
  whenReady?(onProgress?: (elapsedMs: number, message: string) => void): Promise<void>;
}

export interface VectorMatch {
  id: string;
  score: number;
}

export interface VectorFilter {
  /** Only vectors whose scope is one of these. */
  scopes?: string[];
  /** Only vectors whose sensitivity is one of these. */
  sensitivities?: string[];
}

/** The word table behind the default embedder, as data/word-table.json holds it (scripts/word-vectors/derive.mjs). */
export interface WordTableData {
  source: string;
  dimensions: number;
  /** The words in corpus-frequency order, separated by single spaces. */
  words: string;
  /** Two signed 4-bit components a byte, low nibble first, row after row. */
  vectorsBase64: string;
}

/** How a host reads the word table: a file read in Node, a JSON module in the Worker. Called at the first embed. */
export type WordTableSource = () => Promise<WordTableData>;

/** Where vectors are searched: embedded beside the rows, or Vectorize. */
export interface VectorIndex {
  upsert(items: { id: string; vector: Float32Array; scope: string; sensitivity: string }[]): Promise<void>;
  delete(ids: string[]): Promise<void>;
  query(vector: Float32Array, topK: number, filter?: VectorFilter): Promise<VectorMatch[]>;
}

/** A model the AI loop drives, built by the host (AI SDK provider packages or the Workers AI binding). Absent means direct mode. */
export interface LlmProvider {
  /** "anthropic" | "ollama" | "workers-ai", or a test double's name. */
  readonly provider: string;
  /** The model name exactly as configured (MOTEBIT_MODEL) or the provider's default. */
  readonly modelName: string;
  /** "<provider>:<model>", as the start-up line and the turn's context name it. */
  readonly id: string;
  readonly model: Exclude<LanguageModel, string>;
}

// The relay as the motebit sees it. The relay loop (src/relay/) drives a motebit and fills these in; the core only
// reads them, so they live here, below both.
/** What the motebit's public state says about the relay. */
export interface RelayStatus {
  sync_url: string;
  endpoint_url: string | null;
  registered: boolean;
  last_success_at: number | null;
  self_test: string | null;
}

/** A forwarded task's record at the relay: the capabilities its submitter asked for. */
export type RelayTaskLookup = { ok: true; requiredCapabilities: string[] } | { ok: false; why: string };

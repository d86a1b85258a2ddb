// The memory module's public surface: one import point for hosts and the rest of the core.
export * from "./sensitivity.js";
export * from "./memory-node.js";
export * from "./content-limits.js";
export * from "./retention.js";
export * from "./scoring.js";
export { MEMORY_SCHEMA, migrateMemory } from "./schema.js";
export * from "./store.js";
export * from "./embedder-local.js";
export * from "./embedder-semantic.js";
export * from "./embedder-combined.js";
export * from "./embedder-workers-ai.js";
export * from "./index-embedded.js";
export * from "./index-vectorize.js";
export * from "./backends.js";

// The core's AI-mode entry (motebit-edge/core/ai): the modules that load the AI SDK or a model server. Hosts import
// it only when a setting needs it, so direct mode never evaluates the SDK (the CLI bundle keeps it in a chunk).
export { fetchProvider } from "./agent/providers.js";
export { createOllamaEmbedder } from "./memory/embedder-ollama.js";

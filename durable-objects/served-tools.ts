// The tools this isolate serves. createMotebitWorker registers them when the Worker's entry module loads, before
// any request, so the Durable Object (same module graph, same isolate) reads them at start-up.
import { ToolRegistry } from "../src/index.js";

let registered: { exported: unknown; registry: ToolRegistry } | undefined;

/**
 * Validates the tool array (and the module's resources and prompts, when given) now — a bad module fails the
 * deploy, not the first call — and keeps them for the object; the Worker gets the same registry back.
 */
export function registerServedTools(exported: unknown, extras: { resources?: unknown; prompts?: unknown } = {}): ToolRegistry {
  if (registered !== undefined && registered.exported !== exported) {
    throw new Error("motebit-edge: createMotebitWorker was called twice with different tools; one Worker serves one tool array");
  }
  registered = { exported, registry: ToolRegistry.fromModule(exported, extras) };
  return registered.registry;
}

export function servedTools(): ToolRegistry {
  if (registered === undefined) {
    throw new Error("no tools registered: the Worker's entry must `export default createMotebitWorker({ tools })`");
  }
  return registered.registry;
}

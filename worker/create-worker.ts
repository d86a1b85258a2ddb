// The edge as a library: a user's Worker entry is
//   export { MotebitObject } from "motebit-edge";
//   export default createMotebitWorker({ tools });
import type { ServedTool } from "../src/tools/types.js";
import { createApp } from "./app.js";
import { durableObjectBackend } from "./durable-object-backend.js";
import type { EdgeEnv } from "./env.js";
import { registerServedTools } from "./served-tools.js";

export interface MotebitWorkerOptions {
  /** The served tools: an array of { definition, handler } (README: "Your own tools"). */
  tools: readonly ServedTool[];
}

/** The Worker's fetch handler for this deployment's motebit; also hands `tools` to its Durable Object. */
export function createMotebitWorker(options: MotebitWorkerOptions) {
  registerServedTools(options.tools);
  return createApp<EdgeEnv>(durableObjectBackend);
}

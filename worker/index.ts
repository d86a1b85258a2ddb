// This repository's edge Worker: the library's own entry point, serving the example tools.
import tools from "../examples/tools/index.js";
import type { MotebitObject as MotebitObjectInstance } from "../durable-objects/motebit-object.js";
import { createMotebitWorker } from "./create-worker.js";

const worker = createMotebitWorker({ tools });
export default worker;
export const { MotebitObject } = worker;
/** The object's type, for `wrangler types` (types/worker-env.d.ts names it as this module's MotebitObject). */
export type MotebitObject = MotebitObjectInstance;

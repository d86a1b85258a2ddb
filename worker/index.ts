// This repository's edge Worker: the library's own entry point, serving the example tools.
import tools from "../examples/tools/index.js";
import { createMotebitWorker } from "./create-worker.js";

export { MotebitObject } from "../durable-objects/motebit-object.js";

export default createMotebitWorker({ tools });

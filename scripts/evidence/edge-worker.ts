// The edge Worker for the fleet evidence run: the example tools plus logged_step, which logs each execution to the
// Worker's console (wrangler's output), so runs per task can be counted at the edge too.
import examples from "../../examples/tools/index.js";
import { createMotebitWorker } from "../../worker/create-worker.js";
import { loggedStep, RUN_LOG_PREFIX } from "./logged-step.js";

const worker = createMotebitWorker({ tools: [...examples, loggedStep((line) => console.warn(`${RUN_LOG_PREFIX}${line}`))] });
export default worker;
export const { MotebitObject } = worker;

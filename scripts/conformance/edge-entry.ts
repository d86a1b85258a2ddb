// The conformance suite's edge Worker: the library entry with the suite's fixtures as its tools, resources and prompts.
import tools, { prompts, resources } from "./fixtures.js";
import { createMotebitWorker } from "../../worker/create-worker.js";

const worker = createMotebitWorker({ tools, resources, prompts });
export default worker;
export const { MotebitObject } = worker;

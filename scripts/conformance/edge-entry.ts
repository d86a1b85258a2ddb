// The conformance suite's edge Worker: the library entry with the suite's fixtures as its tools, resources and prompts.
import tools, { prompts, resources } from "./fixtures.js";
import { createMotebitWorker } from "../../worker/create-worker.js";

export { MotebitObject } from "../../durable-objects/motebit-object.js";

export default createMotebitWorker({ tools, resources, prompts });

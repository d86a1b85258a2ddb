// Entry of the workerd-memory test worker: the test Durable Object and the two doubles, which the
// project binds back to this worker as service bindings (VECTORIZE*, AI) with per-binding props.
export { MemoryTestObject } from "./memory-test-object.js";
export { VectorizeDouble } from "../../doubles/vectorize-double.js";
export { WorkersAiDouble } from "../../doubles/workers-ai-double.js";

export default {
  async fetch(): Promise<Response> {
    return new Response("memory test worker", { status: 200 });
  },
};

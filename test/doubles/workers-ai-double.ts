// The Workers AI double as a WorkerEntrypoint, bound as a service binding named AI in the workerd-memory
// test project (where the real binding would be [ai]). run() is the binding's call; calls() is a test control.
// Answers are RpcResults; env.ts turns them back into the real binding's values and throws.
import { WorkerEntrypoint } from "cloudflare:workers";
import { SimWorkersAi } from "./workers-ai-sim.js";
import { settle } from "./rpc-result.js";

const ai = new SimWorkersAi();

export class WorkersAiDouble extends WorkerEntrypoint {
  run(model: string, inputs: unknown) { return settle(() => ai.run(model, inputs)); }
  calls() { return settle(() => structuredClone(ai.calls)); }
}

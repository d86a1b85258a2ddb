// The edge (the real Worker and its Durable Object) under the shared HTTP fuzzer. FUZZ_RUNS / FUZZ_SEED reach
// workerd as bindings (vitest.config.ts), since process.env does not.
// Requests go to the Worker's fetch handler directly, not through SELF.fetch: under vitest-pool-workers every
// SELF.fetch costs more than the one before it in the same workerd instance (cloudflare/workers-sdk#15446; here
// /health went from 2 ms to 17 ms a request within 300 requests), so long fuzz runs became quadratic. The handler
// and the object's binding are the same; only the harness's dispatch is skipped.
import { createExecutionContext, env, waitOnExecutionContext } from "cloudflare:test";
import worker from "../../../worker/index.js";
import { describeHttpFuzz } from "../../shared/fuzz-http.js";
import { objectRows, signedAuth, STATIC } from "./helpers.js";

const knobs = env as unknown as { FUZZ_RUNS?: string; FUZZ_SEED?: string };

async function fetchWorker(req: Request): Promise<Response> {
  const ctx = createExecutionContext();
  const res = await worker.fetch(req, env, ctx);
  await waitOnExecutionContext(ctx);
  return res;
}

describeHttpFuzz(
  "edge",
  async () => ({
    fetch: fetchWorker,
    auth: STATIC,
    signedAuth: (jti) => signedAuth("known_caller", { jti }),
    rows: async (table) => (await objectRows<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`))[0].n,
  }),
  { FUZZ_RUNS: knobs.FUZZ_RUNS, FUZZ_SEED: knobs.FUZZ_SEED },
);

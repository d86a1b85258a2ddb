// The edge (the real Worker and its Durable Object) under the shared HTTP fuzzer. FUZZ_RUNS / FUZZ_SEED reach
// workerd as bindings (vitest.config.ts), since process.env does not.
import { env, SELF } from "cloudflare:test";
import { describeHttpFuzz } from "../../shared/fuzz-http.js";
import { objectRows, signedAuth, STATIC } from "./helpers.js";

const knobs = env as unknown as { FUZZ_RUNS?: string; FUZZ_SEED?: string };

describeHttpFuzz(
  "edge",
  async () => ({
    fetch: (req) => SELF.fetch(req),
    auth: STATIC,
    signedAuth: (jti) => signedAuth("known_caller", { jti }),
    rows: async (table) => (await objectRows<{ n: number }>(`SELECT COUNT(*) AS n FROM ${table}`))[0].n,
  }),
  { FUZZ_RUNS: knobs.FUZZ_RUNS, FUZZ_SEED: knobs.FUZZ_SEED },
);

// The Node host's HTTP surface (the shared app in-process) under the shared HTTP fuzzer, with the rate limit off so
// every input reaches the handlers (the limit itself is tested on its own).
import { describeHttpFuzz } from "../../shared/fuzz-http.js";
import { nodeAppHost } from "../helpers/node-app.js";

describeHttpFuzz("Node host", () => nodeAppHost({ MOTEBIT_RATE_LIMIT: "0" }), { FUZZ_RUNS: process.env.FUZZ_RUNS, FUZZ_SEED: process.env.FUZZ_SEED });

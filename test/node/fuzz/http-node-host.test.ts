// The Node host's HTTP surface (the shared app in-process) under the shared HTTP fuzzer.
import { describeHttpFuzz } from "../../shared/fuzz-http.js";
import { nodeAppHost } from "../helpers/node-app.js";

describeHttpFuzz("Node host", nodeAppHost, { FUZZ_RUNS: process.env.FUZZ_RUNS, FUZZ_SEED: process.env.FUZZ_SEED });

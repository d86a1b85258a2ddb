import { availableParallelism } from "node:os";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";
import { cloudflareTest } from "@cloudflare/vitest-pool-workers";
import { nodeFloorError } from "./local-stdio/bin/node-floor.js";

// Below the Node floor (no node:sqlite) every Node test file would fail on its own; stop the run before any starts,
// with the CLI's one line.
const belowFloor = nodeFloorError();
if (belowFloor) {
  process.stderr.write(belowFloor);
  process.exit(1);
}

// motebit-local imports the core by its package name; tsconfig.json "paths" maps it for tsc, tsx and esbuild, and
// this maps it the same way for the tests that load local-stdio's sources.
export const coreEntry = [
  { find: /^motebit-edge\/core$/, replacement: fileURLToPath(new URL("./src/index.ts", import.meta.url)) },
  { find: /^motebit-edge\/core\/ai$/, replacement: fileURLToPath(new URL("./src/ai.ts", import.meta.url)) },
  { find: /^motebit-edge\/core\/otel$/, replacement: fileURLToPath(new URL("./src/otel.ts", import.meta.url)) },
];

// Two runtimes, one command: the core must behave the same in Node and in workerd.
export default defineConfig({
  test: {
    reporters: ["default", "./test/summary-reporter.ts"],
    projects: [
      {
        resolve: { alias: coreEntry },
        test: {
          name: "node",
          include: ["test/node/**/*.test.ts"],
          environment: "node",
          // Tests run the CLI as users get it: the built bundle (local-stdio/dist), rebuilt from the sources here.
          globalSetup: ["./test/node/build-cli.global-setup.ts"],
          setupFiles: ["./test/node/word-table.setup.ts"],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          // Most of these wait on processes they spawned, so a file per core runs (vitest's default, cores - 1, ran one
          // file at a time on 2 cores; one more than the cores timed spawning tests out on a loaded machine). A
          // maxWorkers of its own needs a group of its own: the node project runs after the workerd ones.
          maxWorkers: availableParallelism(),
          sequence: { groupOrder: 1 },
        },
      },
      {
        plugins: [
          cloudflareTest({
            main: "./worker/index.ts",
            wrangler: { configPath: "./test/workerd/wrangler.test.toml" },
          }),
        ],
        test: {
          name: "workerd",
          include: ["test/workerd/**/*.test.ts"],
          // Their own projects below (other bindings).
          exclude: ["test/workerd/memory/**", "test/workerd/telemetry/**", "test/workerd/edge/fuzz-http.test.ts"],
          setupFiles: ["./test/workerd/word-table.setup.ts"],
          testTimeout: 30_000,
        },
      },
      // workerd-fuzz: the HTTP fuzzer against the Worker with the rate limit off, so every input reaches the handlers;
      // its knobs (npm run fuzz) reach workerd as bindings, since workerd has no process.env.
      {
        plugins: [
          cloudflareTest({
            main: "./worker/index.ts",
            wrangler: { configPath: "./test/workerd/wrangler.test.toml" },
            miniflare: {
              bindings: { FUZZ_RUNS: process.env.FUZZ_RUNS ?? "", FUZZ_SEED: process.env.FUZZ_SEED ?? "", MOTEBIT_RATE_LIMIT: "0" },
              // Nor are failed authentications (worker/auth-failures.ts).
              ratelimits: { AUTH_FAILURES: { namespace_id: "1042", simple: { limit: 1_000_000_000, period: 60 } } },
            },
          }),
        ],
        test: {
          name: "workerd-fuzz",
          include: ["test/workerd/edge/fuzz-http.test.ts"],
          testTimeout: 30_000,
        },
      },
      // workerd-memory: memory tests in workerd with the Vectorize / Workers AI doubles as service bindings.
      "./test/workerd/memory/vitest.memory.config.ts",
      // workerd-otel: the Worker and its object exporting OTLP to a real receiver (test/workerd/telemetry/).
      "./test/workerd/telemetry/vitest.otel.config.ts",
    ],
  },
});

import { defineConfig } from "vitest/config";
import { cloudflareTest } from "@cloudflare/vitest-pool-workers";
import { fileURLToPath } from "node:url";

// wrangler's [alias] for the served tools module; Vite resolves modules itself, so it needs the same alias.
const toolsAlias = { "motebit-tools": fileURLToPath(new URL("./examples/tools/index.ts", import.meta.url)) };

// Two runtimes, one command: the core must behave the same in Node and in workerd.
export default defineConfig({
  test: {
    reporters: ["default", "./test/summary-reporter.ts"],
    projects: [
      {
        test: {
          name: "node",
          include: ["test/node/**/*.test.ts"],
          environment: "node",
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        plugins: [
          cloudflareTest({
            main: "./worker/index.ts",
            wrangler: { configPath: "./test/workerd/wrangler.test.toml" },
            // The fuzzers' knobs (npm run fuzz): workerd has no process.env.
            miniflare: { bindings: { FUZZ_RUNS: process.env.FUZZ_RUNS ?? "", FUZZ_SEED: process.env.FUZZ_SEED ?? "" } },
          }),
        ],
        resolve: { alias: toolsAlias },
        test: {
          name: "workerd",
          include: ["test/workerd/**/*.test.ts"],
          exclude: ["test/workerd/memory/**"], // its own project below (other bindings)
          testTimeout: 30_000,
        },
      },
      // workerd-memory: memory tests in workerd with the Vectorize / Workers AI doubles as service bindings.
      "./test/workerd/memory/vitest.memory.config.ts",
    ],
  },
});

// npm run test:unit: the Node tests that run in-process only (no child process, no socket, no workerd), for a run in
// seconds while editing. npm test runs them too, in the node project (vitest.config.ts). Whole folders, so a new test
// lands in the run its folder says; test/node/layering/unit-run-stays-in-process.test.ts holds these folders to it.
import { defineConfig } from "vitest/config";
import { coreEntry } from "./vitest.config";

/** The folders of test/node whose tests spawn nothing and listen on nothing, and the files in them that do. */
export const UNIT_FOLDERS = ["agent", "ai", "discovery", "engine", "evidence", "fuzz", "host", "log", "mcp", "memory", "policy", "protocol", "server", "settings", "storage", "stores", "telemetry", "tools"];
export const NOT_UNIT = ["test/node/ai/provider-failure-names-url.test.ts", "test/node/engine/same-exchanges-over-stdio-and-http.test.ts"];

/** Files that mock a module (vi.mock): a module graph shared across files would hand them the unmocked one. */
export const MOCKING = ["test/node/policy/admission-every-path.test.ts", "test/node/telemetry/off-calls-no-opentelemetry.test.ts"];

const shared = {
  environment: "node" as const,
  // The default embedder's word table, as the node project provides it (a host's job; tests stand in for one).
  setupFiles: ["./test/node/word-table.setup.ts"],
  testTimeout: 30_000,
};

export default defineConfig({
  resolve: { alias: coreEntry },
  test: {
    reporters: ["default", "./test/summary-reporter.ts"],
    projects: [
      {
        resolve: { alias: coreEntry },
        test: {
          ...shared,
          name: "unit",
          include: UNIT_FOLDERS.map((f) => `test/node/${f}/**/*.test.ts`),
          exclude: [...NOT_UNIT, ...MOCKING],
          // Nothing here waits on another process, so both cores work; and no test keeps module state another needs
          // fresh, so one module graph serves every file (isolated, each file re-imported the core: half the run).
          maxWorkers: 2,
          isolate: false,
        },
      },
      { resolve: { alias: coreEntry }, test: { ...shared, name: "unit-mocking", include: MOCKING, maxWorkers: 2 } },
    ],
  },
});

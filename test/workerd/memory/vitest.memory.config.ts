// The workerd-memory test project: memory tests inside workerd, with the Vectorize and Workers AI doubles
// bound as service bindings back into the test worker (entrypoints exported by main.ts), each binding
// configured through props — the way a real [[vectorize]] / [ai] binding would appear in env.
import { cloudflareTest } from "@cloudflare/vitest-pool-workers";
import { defineProject } from "vitest/config";
import { kCurrentWorker } from "miniflare";

const metadataIndexes = ["scope", "sensitivity"];
const vectorize = (props: Record<string, unknown>) => ({ name: kCurrentWorker, entrypoint: "VectorizeDouble", props });

// Paths are relative to this directory: the root config lists this file as a project, whose root is its folder.
export default defineProject({
  plugins: [
    cloudflareTest({
      main: "./main.ts",
      wrangler: { configPath: "./wrangler.memory.toml" },
      miniflare: {
        serviceBindings: {
          VECTORIZE: vectorize({ index: "memories-768", dimensions: 768, metadataIndexes }),
          VECTORIZE_LOCAL: vectorize({ index: "memories-256", dimensions: 256, metadataIndexes }),
          VECTORIZE_NO_METADATA_INDEXES: vectorize({ index: "no-metadata-indexes", dimensions: 256, metadataIndexes: [] }),
          VECTORIZE_EVENTUAL: vectorize({ index: "eventual", dimensions: 256, metadataIndexes, consistency: "eventual" }),
          AI: { name: kCurrentWorker, entrypoint: "WorkersAiDouble" },
        },
      },
    }),
  ],
  test: {
    name: "workerd-memory",
    include: ["**/*.test.ts"],
    setupFiles: ["../word-table.setup.ts"],
    testTimeout: 60_000,
  },
});

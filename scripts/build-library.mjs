#!/usr/bin/env node
// Builds the published motebit-edge package into dist/: index.js (what a Worker imports: the Durable Object class
// and createMotebitWorker) and client.js (signedFetch and motebitCredentialSource, for any runtime), the core bundled in; hono and the
// Workers runtime stay external. Declarations come from tsconfig.build.json.
import { build } from "esbuild";
import { execFileSync } from "node:child_process";
import { rmSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
rmSync(new URL("../dist", import.meta.url), { recursive: true, force: true });

await build({
  absWorkingDir: root,
  entryPoints: { index: "worker/library.ts", client: "src/client/index.ts" },
  outdir: "dist",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "neutral",
  target: "es2022",
  // The AI SDK stays a dependency the user's wrangler resolves with the Workers conditions (bundled here with neutral
  // conditions it would pull in Node-only modules).
  external: ["cloudflare:workers", "hono", "hono/*", "ai", "@ai-sdk/anthropic", "ollama-ai-provider-v2", "workers-ai-provider"],
  legalComments: "none",
  logLevel: "warning",
});

const tsc = fileURLToPath(new URL("../node_modules/typescript/bin/tsc", import.meta.url));
execFileSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], { cwd: root, stdio: "inherit" });

#!/usr/bin/env node
// Builds the published CLI: one ES module (dist/cli.js) with the platform-neutral core (../src, ../worker) and
// its pure-JavaScript dependencies (the MCP SDK's stdio framing, hono, @hono/node-server) bundled in, so the
// package runs no TypeScript, needs nothing from this repository and starts from one file (about 40% faster to
// the first stdio answer than with those dependencies as separate module graphs). SQLite is Node's own (node:sqlite),
// and so is TypeScript for a --tools module (type stripping). The AI SDK and its providers
// are split into chunks of their own (dist/chunks/), loaded only in AI mode, so direct mode never parses them. The
// word table is data beside the bundle (dist/word-table.json), not JavaScript in it.
import { build } from "esbuild";
import { copyFileSync, readdirSync, rmSync } from "node:fs";
import { fileURLToPath } from "node:url";

const result = await build({
  absWorkingDir: fileURLToPath(new URL("..", import.meta.url)),
  entryPoints: { cli: "src/cli.ts" },
  outdir: "dist",
  chunkNames: "chunks/[name]-[hash]",
  splitting: true,
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node22",
  // Bundled CommonJS dependencies call require() for Node's built-ins; an ES module has none of its own.
  banner: { js: 'import { createRequire as __motebitRequire } from "node:module";\nconst require = __motebitRequire(import.meta.url);' },
  // The OpenTelemetry SDK and exporters are the package's dependencies, imported only when OTEL_* or --metrics-port
  // asks for them (src/telemetry/): never parsed otherwise. @opentelemetry/api stays bundled: the core calls it.
  external: ["@opentelemetry/core", "@opentelemetry/resources", "@opentelemetry/sdk-*", "@opentelemetry/exporter-*"],
  legalComments: "none",
  logLevel: "warning",
  metafile: true,
});

// Chunks of an earlier build (their names are content hashes) would otherwise be packed too. They go after the new
// build is written, not before: `npm pack` rebuilds (prepare) while tests may be running the CLI from this dist/.
const chunks = new URL("../dist/chunks/", import.meta.url);
const written = new Set(Object.keys(result.metafile.outputs).map((out) => out.replace(/^dist\/chunks\//, "")));
for (const name of readdirSync(chunks)) if (!written.has(name)) rmSync(new URL(name, chunks), { force: true });

// The default embedder's word table, read from this file at the first embed (src/word-table-file.ts).
copyFileSync(new URL("../../data/word-table.json", import.meta.url), new URL("../dist/word-table.json", import.meta.url));

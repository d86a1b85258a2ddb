#!/usr/bin/env node
// Builds the published CLI: one ES module (dist/cli.js) with the platform-neutral core (../src, ../worker) bundled
// in, so the package runs no TypeScript and needs nothing from this repository. Its npm dependencies stay
// external (installed beside it); tsx is loaded only when a --tools module is TypeScript.
import { build } from "esbuild";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));

await build({
  absWorkingDir: root,
  entryPoints: ["src/cli.ts"],
  outfile: "dist/cli.js",
  bundle: true,
  format: "esm",
  platform: "node",
  target: "node20",
  external: Object.keys(pkg.dependencies),
  sourcemap: false,
  legalComments: "none",
  logLevel: "warning",
});

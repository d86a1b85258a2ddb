#!/usr/bin/env node
// Node 22 for machines that run an older Node: the registry's node-<platform>-<arch> package, unpacked once into
// .cache/node22. Used by the conformance run (the suite needs Node ≥ 22) and by .ci/run (the tests run on the
// supported floor). Run directly, it prints the folder to put first on PATH (<dir>/bin).
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, rmSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const NODE22 = "22.23.5";
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Resolves to the unpacked package's folder (bin/node); fetches it on first use. */
export function ensureNode22({ log = (line) => console.error(line) } = {}) {
  const cache = path.join(root, ".cache");
  const dir = path.join(cache, "node22");
  if (existsSync(path.join(dir, "bin", "node"))) return dir;
  const pkg = `node-${process.platform}-${process.arch}@${NODE22}`;
  log(`fetching Node ${NODE22} (${pkg}, about 50 MB) into .cache/node22 — once`);
  mkdirSync(dir, { recursive: true });
  const tgz = execFileSync("npm", ["pack", pkg, "--silent", "--pack-destination", cache], { encoding: "utf8" }).trim().split("\n").pop();
  execFileSync("tar", ["xzf", path.join(cache, tgz), "-C", dir, "--strip-components=1"]);
  rmSync(path.join(cache, tgz));
  if (!existsSync(path.join(dir, "bin", "node"))) throw new Error(`${pkg} has no bin/node`);
  return dir;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log(path.join(ensureNode22(), "bin"));
}

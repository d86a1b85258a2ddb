// The layering check, run by dependency-cruiser with the repository's rules (.dependency-cruiser.cjs): no import
// circles (type-only imports count), no node:/cloudflare: imports in src/, hosts reach the core only through
// src/index.ts or src/ai.ts, no src/ folder imports from a layer above it, the HTTP app never imports host start-up,
// the Durable Object never imports the Worker. A planted tree proves each rule fires.
import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../../", import.meta.url));
const cli = join(root, "node_modules/dependency-cruiser/bin/dependency-cruise.mjs");
const config = join(root, ".dependency-cruiser.cjs");

interface Violation { rule: { name: string }; from: string; to: string; cycle?: unknown[] }
interface Cruise { summary: { violations: Violation[]; totalCruised: number } }

async function cruise(cwd: string, dirs: string[]): Promise<Cruise> {
  // Exit code 1 means "violations found": the JSON on stdout still says which.
  const run = promisify(execFile)(process.execPath, [cli, ...dirs, "--config", config, "--output-type", "json"], { cwd, maxBuffer: 64 << 20 })
    .catch((e: { stdout?: string; code?: number }) => (e.code === 1 && e.stdout ? { stdout: e.stdout } : Promise.reject(e)));
  return JSON.parse((await run).stdout) as Cruise;
}

const planted = mkdtempSync(join(tmpdir(), "layering-"));
afterAll(() => rmSync(planted, { recursive: true, force: true }));

describe("layering", () => {
  it("the core and its hosts have no circle, no platform import in src/, no way around the entry, no back-edge", async () => {
    const r = await cruise(root, ["src", "worker", "durable-objects", "local-stdio/src"]);
    expect(r.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`)).toEqual([]);
    expect(r.summary.totalCruised).toBeGreaterThan(200);
  }, 60_000);

  it("each rule fires on a tree that breaks it", async () => {
    const files: Record<string, string> = {
      "tsconfig.json": "{}",
      "src/protocol/low.ts": 'import { high } from "../mcp/high.js";\nimport { readFileSync } from "node:fs";\nexport const low = [high, readFileSync];\n',
      "src/mcp/high.ts": 'import { low } from "../protocol/low.js";\nimport { DurableObject } from "cloudflare:workers";\nexport const high = () => [low, DurableObject];\n',
      "src/index.ts": 'export { high } from "./mcp/high.js";\n',
      "worker/host.ts": 'import { high } from "../src/mcp/high.js";\nimport { high as viaEntry } from "../src/index.js";\nexport const h = [high, viaEntry];\n',
      "src/host/start.ts": "export const start = 1;\n",
      "src/server/app.ts": 'import { start } from "../host/start.js";\nexport const app = start;\n',
      "durable-objects/object.ts": 'import { h } from "../worker/host.js";\nexport const o = h;\n',
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(planted, path)), { recursive: true });
      writeFileSync(join(planted, path), text);
    }
    const r = await cruise(planted, ["src", "worker", "durable-objects"]);
    const seen = r.summary.violations.map((v) => `${v.rule.name}: ${v.from} → ${v.to}`).sort();
    expect(seen).toEqual([
      "core-is-platform-neutral: src/mcp/high.ts → cloudflare:workers",
      "core-is-platform-neutral: src/protocol/low.ts → fs",
      "hosts-use-the-core-entry: worker/host.ts → src/mcp/high.ts",
      "http-app-is-host-neutral: src/server/app.ts → src/host/start.ts",
      "no-back-edge: src/protocol/low.ts → src/mcp/high.ts",
      "no-back-edge: src/server/app.ts → src/host/start.ts",
      "no-circular: src/mcp/high.ts → src/protocol/low.ts",
      "object-never-imports-worker: durable-objects/object.ts → worker/host.ts",
    ]);
  }, 60_000);
});

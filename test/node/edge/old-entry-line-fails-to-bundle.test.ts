// The entry line of earlier releases, `export { MotebitObject } from "motebit-edge"`, re-exported a class that read
// its tools from module state. The library no longer exports it, so such an entry fails when wrangler bundles it
// (dev and deploy alike), at that line, before anything runs (README "Upgrading").
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../../..");
const dir = mkdtempSync(path.join(tmpdir(), "motebit-old-entry-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("an entry that re-exports MotebitObject from the library does not bundle, and the error names that export", () => {
  const library = JSON.stringify(path.join(root, "worker/library.ts"));
  writeFileSync(
    path.join(dir, "worker.js"),
    `import { createMotebitWorker } from ${library};\nexport { MotebitObject } from ${library};\nexport default createMotebitWorker({ tools: [] });\n`,
  );
  const config = readFileSync(path.join(root, "wrangler.toml"), "utf8").replace(/^main = .*$/m, 'main = "worker.js"');
  writeFileSync(path.join(dir, "wrangler.toml"), config);
  const wrangler = path.join(root, "node_modules/wrangler/bin/wrangler.js");
  const r = spawnSync(process.execPath, [wrangler, "deploy", "--dry-run", "--outdir", path.join(dir, "out"), "--config", path.join(dir, "wrangler.toml")], {
    cwd: dir,
    encoding: "utf8",
    timeout: 60_000,
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", WRANGLER_SEND_ERROR_REPORTS: "false", WRANGLER_HIDE_BANNER: "true", NO_COLOR: "1" },
  });
  expect(r.status).not.toBe(0);
  expect(r.stdout + r.stderr).toMatch(/No matching export in "[^"]*worker\/library\.ts" for import "MotebitObject"/);
  expect(r.stdout + r.stderr).toContain("worker.js:2:");
}, 60_000);

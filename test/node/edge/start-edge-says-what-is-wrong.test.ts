// `npm start` (scripts/start-edge.mjs) says at start, in a line or two, what stops the edge and how to fix it:
// a setting the motebit cannot start with (here a bearer token under 16 characters), or no `npm ci` yet; and a
// passing start prints no warning about the cron it cannot trigger by itself.
import { cpSync, mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { runToCompletion } from "../helpers/child-process.js";
import { REPO } from "../local/helpers/local-cli.js";
import { startLocalEdge, type LocalEdge } from "./local-edge.js";

let edge: LocalEdge | undefined;
afterAll(async () => {
  await edge?.stop();
});

it("a token under 16 characters: npm start says the motebit cannot start, why, and to restart after fixing it", async () => {
  edge = await startLocalEdge({ MOTEBIT_AUTH_TOKEN: "change-me" });
  await expect
    .poll(() => edge!.output(), { timeout: 30_000 })
    .toMatch(/motebit-edge: the motebit cannot start, so every request answers 503: MOTEBIT_AUTH_TOKEN[^\n]*16 characters[^\n]*\n {2}fix this setting and restart/);
  const res = await fetch(`${edge.url}/mcp`, { method: "POST", headers: { Authorization: "Bearer change-me" } });
  expect(res.status).toBe(503);
  expect(edge.output()).not.toContain("Scheduled Workers are not automatically triggered");
}, 120_000);

it("npm start before npm ci: one line saying to run npm ci", async () => {
  const clone = mkdtempSync(join(tmpdir(), "motebit-no-ci-"));
  try {
    mkdirSync(join(clone, "scripts"));
    cpSync(join(REPO, "scripts/start-edge.mjs"), join(clone, "scripts/start-edge.mjs"));
    const r = await runToCompletion(process.execPath, [join(clone, "scripts/start-edge.mjs")], { cwd: clone, env: process.env, timeoutMs: 20_000 });
    expect([r.code, r.stdout, r.stderr]).toEqual([1, "", "motebit-edge: wrangler is not installed here: run npm ci first (npm install in a project of your own), then npm start\n"]);
  } finally {
    rmSync(clone, { recursive: true, force: true });
  }
});

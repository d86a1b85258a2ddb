#!/usr/bin/env node
// npm run conformance: the official MCP conformance suite and the MCP Inspector CLI against both HTTP hosts —
// the edge (workerd, `wrangler dev --local`) and `motebit-local serve --serve-transport http` — each serving
// the conformance fixtures (fixtures.ts) on loopback behind a header-injecting proxy (the suite cannot send
// an Authorization header). The suite needs Node ≥ 22: a Node 22 binary comes from the npm registry into
// .cache/ on first use. Results: conformance-results/<host>-<spec version>/ (git-ignored).
//
//   npm run conformance                     both hosts, every 2025-11-25 and 2026-07-28 scenario (+ the tasks extension)
//   npm run conformance -- --host local     one host (edge | local)
//   npm run conformance -- --spec-version 2026-07-28   one spec version
//   npm run conformance -- --scenario ping  one scenario
//   npm run conformance -- --suite all      also the suite's pending and draft scenarios
import { execFileSync, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { startAuthProxy } from "./auth-proxy.mjs";
import { ensureNode22 } from "../node22.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const here = path.join(root, "scripts/conformance");
const cache = path.join(root, ".cache");
const SUITE = "@modelcontextprotocol/conformance@0.2.0-alpha.12";
const INSPECTOR = "@modelcontextprotocol/inspector-cli@1.0.3";
const SPECS = ["2025-11-25", "2026-07-28"];
const TASKS_SCENARIOS = [
  "tasks-capability-negotiation", "tasks-lifecycle", "tasks-wire-fields", "tasks-request-state-removal", "tasks-mrtr-input",
  "tasks-request-headers", "tasks-dispatch-and-envelope", "tasks-status-notifications", "tasks-required-task-error", "tasks-mrtr-composition",
];

const args = process.argv.slice(2);
const flag = (name) => {
  const i = args.indexOf(`--${name}`);
  return i === -1 ? undefined : args[i + 1];
};
if (args.includes("--help")) {
  console.log("usage: npm run conformance [-- --host edge|local] [--spec-version 2025-11-25|2026-07-28] [--scenario NAME] [--suite active|all|pending|draft]");
  process.exit(0);
}
const hosts = flag("host") ? [flag("host")] : ["edge", "local"];
for (const h of hosts) if (h !== "edge" && h !== "local") fail(`--host must be edge or local, got ${h}`);
const scenario = flag("scenario");
const specs = flag("spec-version") ? [flag("spec-version")] : SPECS;
for (const v of specs) if (!SPECS.includes(v)) fail(`--spec-version must be one of ${SPECS.join(", ")}, got ${v}`);
// Every scenario of the spec version, pending ones included (the active set leaves some 2025-11-25 ones out).
const suiteName = flag("suite") ?? "all";

function fail(msg) {
  console.error(`conformance: ${msg}`);
  process.exit(2);
}
const say = (line) => console.log(`conformance: ${line}`);

/** The suite and the Inspector CLI, pinned, in their own folder (the Inspector wants a package.json beside it). */
function ensureTools() {
  const dir = path.join(cache, "conformance-tools");
  const suite = path.join(dir, "node_modules/@modelcontextprotocol/conformance/package.json");
  if (existsSync(suite)) return dir;
  say(`installing ${SUITE} and ${INSPECTOR} into .cache/conformance-tools — once`);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, "package.json"), JSON.stringify({ name: "motebit-conformance-tools", private: true }) + "\n");
  execFileSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", SUITE, INSPECTOR], { cwd: dir, stdio: "inherit" });
  return dir;
}

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

async function waitForHealth(url, child, seconds) {
  const deadline = Date.now() + seconds * 1000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}) before it was ready`);
    try {
      if ((await fetch(`${url}/health`)).ok) return;
    } catch {}
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`no /health at ${url} after ${seconds} s`);
}

/** Starts one host with the fixtures; resolves to { url, stop }. Its output goes to <tmp>/<host>.log. */
async function startHost(host, tmp, token) {
  const port = await freePort();
  const logFile = path.join(tmp, `${host}.log`);
  let cmd;
  if (host === "edge") {
    writeFileSync(path.join(tmp, "edge.env"), `MOTEBIT_AUTH_TOKEN=${token}\nMOTEBIT_RATE_LIMIT=0\n`);
    cmd = [process.execPath, [path.join(root, "scripts/start-edge.mjs"), "-c", path.join(here, "wrangler.toml"), "--env-file", path.join(tmp, "edge.env")]];
  } else {
    writeFileSync(path.join(tmp, "local.json"), JSON.stringify({ authToken: token, rateLimit: 0 }));
    cmd = [
      process.execPath,
      [path.join(root, "local-stdio/bin/motebit-local.js"), "serve", "--serve-transport", "http", "--serve-port", String(port),
        "--tools", path.join(here, "fixtures.ts"), "--config", path.join(tmp, "local.json"), "--data-dir", path.join(tmp, "local-data")],
    ];
  }
  const { openSync } = await import("node:fs");
  const out = openSync(logFile, "a");
  const child = spawn(cmd[0], cmd[1], {
    cwd: root,
    stdio: ["ignore", out, out],
    env: { ...process.env, PORT: String(port), MOTEBIT_PERSIST_DIR: path.join(tmp, "edge-state") },
    detached: true,
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = () =>
    new Promise((r) => {
      if (child.exitCode !== null) return r();
      child.once("exit", () => r());
      try { process.kill(-child.pid, "SIGTERM"); } catch { r(); }
      setTimeout(() => { try { process.kill(-child.pid, "SIGKILL"); } catch {} }, 5000).unref();
    });
  try {
    await waitForHealth(url, child, 90);
  } catch (e) {
    await stop();
    throw new Error(`${host}: ${e.message}; see ${logFile}:\n${readFileSync(logFile, "utf8").slice(-2000)}`);
  }
  return { url, stop };
}

function run(bin, argv, opts) {
  return new Promise((resolve) => {
    const child = spawn(bin, argv, { stdio: ["ignore", "pipe", "pipe"], ...opts });
    let out = "";
    child.stdout.on("data", (d) => { out += d; process.stdout.write(d); });
    child.stderr.on("data", (d) => { out += d; process.stderr.write(d); });
    child.on("exit", (code) => resolve({ code: code ?? 1, out }));
  });
}

/** Tallies checks.json under `dir`: SUCCESS / FAILURE / WARNING counts, and the failing check ids. */
function tally(dir) {
  const t = { SUCCESS: 0, FAILURE: 0, WARNING: 0, failed: [] };
  if (!existsSync(dir)) return t;
  for (const s of readdirSync(dir)) {
    const f = path.join(dir, s, "checks.json");
    if (!existsSync(f)) continue;
    for (const c of JSON.parse(readFileSync(f, "utf8"))) {
      if (c.status in t) t[c.status]++;
      if (c.status === "FAILURE") t.failed.push(`${s}: ${c.id}`);
    }
  }
  return t;
}

async function inspectorCheck(node, tools, url, token) {
  const cli = path.join(tools, "node_modules/@modelcontextprotocol/inspector-cli/build/index.js");
  const base = [cli, `${url}/mcp`, "--transport", "http", "--header", `Authorization: Bearer ${token}`];
  // It picks its own package.json by probing "../package.json" from its working directory: give it one that has it.
  const cwd = path.join(tools, "node_modules");
  const list = await run(node, [...base, "--method", "tools/list"], { cwd });
  const call = await run(node, [...base, "--method", "tools/call", "--tool-name", "test_simple_text"], { cwd });
  const listed = list.code === 0 && list.out.includes('"test_simple_text"');
  const called = call.code === 0 && call.out.includes("This is a simple text response for testing.") && call.out.includes("[motebit:");
  return { ok: listed && called, listed, called };
}

const node22 = path.join(ensureNode22({ log: say }), "bin", "node");
const tools = ensureTools();
const token = randomBytes(24).toString("hex");
const tmp = mkdtempSync(path.join(os.tmpdir(), "motebit-conformance-"));
const summary = [];
let failed = false;

for (const host of hosts) {
  say(`starting ${host} …`);
  const server = await startHost(host, tmp, token);
  const proxy = await startAuthProxy(server.url, token);
  try {
    for (const spec of specs) {
      const outDir = path.join(root, "conformance-results", `${host}-${spec}`);
      rmSync(outDir, { recursive: true, force: true });
      const argv = [path.join(tools, "node_modules/@modelcontextprotocol/conformance/dist/index.js"), "server", "--url", `${proxy.url}/mcp`,
        "--spec-version", spec, "-o", outDir, "--expected-failures", path.join(here, `baseline-${spec}.yml`)];
      if (scenario) argv.push("--scenario", scenario);
      argv.push("--suite", suiteName);
      const suite = await run(node22, argv, { cwd: tools });
      const t = tally(outDir);
      summary.push({ host, spec, suiteExit: suite.code, ...t, inspector: null });
      if (suite.code !== 0) failed = true;
    }
    // The tasks extension (2026-07-28 wire) is on no spec version's timeline: its scenarios run one by one, forced.
    if (specs.includes("2026-07-28") && !scenario) {
      const outDir = path.join(root, "conformance-results", `${host}-tasks`);
      rmSync(outDir, { recursive: true, force: true });
      let exit = 0;
      for (const name of TASKS_SCENARIOS) {
        const argv = [path.join(tools, "node_modules/@modelcontextprotocol/conformance/dist/index.js"), "server", "--url", `${proxy.url}/mcp`,
          "--spec-version", "2026-07-28", "--force", "--scenario", name, "-o", outDir, "--expected-failures", path.join(here, "baseline-tasks.yml")];
        const r = await run(node22, argv, { cwd: tools });
        if (r.code !== 0) exit = r.code;
      }
      summary.push({ host, spec: "tasks extension", suiteExit: exit, ...tally(outDir), inspector: null });
      if (exit !== 0) failed = true;
    }
    const inspector = scenario ? null : await inspectorCheck(node22, tools, server.url, token);
    summary.at(-1).inspector = inspector;
    if (inspector && !inspector.ok) failed = true;
  } finally {
    await proxy.close();
    await server.stop();
  }
}
rmSync(tmp, { recursive: true, force: true });

console.log("\n== conformance summary ==");
for (const s of summary) {
  const insp = s.inspector === null ? "skipped" : s.inspector.ok ? "ok" : `FAILED (list ${s.inspector.listed}, call ${s.inspector.called})`;
  console.log(`${s.host} ${s.spec}: ${s.SUCCESS} passed, ${s.FAILURE} failed, ${s.WARNING} warnings; suite exit ${s.suiteExit}; inspector ${insp}`);
  for (const f of s.failed) console.log(`  FAILURE ${f}`);
}
process.exit(failed ? 1 : 0);

#!/usr/bin/env node
// npm start: the edge Worker and its Durable Object on this machine — `wrangler dev --local` (workerd), offline,
// on 127.0.0.1:${PORT:-8787} (or `npm start -- --port N`), reading .dev.vars. MOTEBIT_PERSIST_DIR moves the local
// state (default .wrangler/state). Other arguments go to wrangler as they are (e.g. --env-file ./test.env, --var KEY:VALUE).
// The same script is the package's `motebit-edge-dev` bin, the `npm start` of a project `motebit-local create` made:
// it serves the project in the current folder (npm runs scripts in the package's own folder) with that project's wrangler.
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = process.cwd();
// Through package.json's bin: wrangler's exports map (4.116) no longer lets bin/wrangler.js be resolved directly.
let wranglerPkg;
try {
  wranglerPkg = createRequire(path.join(root, "package.json")).resolve("wrangler/package.json");
} catch {
  process.stderr.write("motebit-edge: wrangler is not installed here: run npm ci first (npm install in a project of your own), then npm start\n");
  process.exit(1);
}
const wrangler = path.join(path.dirname(wranglerPkg), JSON.parse(readFileSync(wranglerPkg, "utf8")).bin.wrangler);

// --port is ours, not passed on: wrangler takes one --port, and a second one after ours fails as "[8787,8790]".
const extra = process.argv.slice(2);
let port = process.env.PORT || "8787";
for (let i = 0; i < extra.length; i++) {
  const m = /^--port(?:=(.*))?$/.exec(extra[i]);
  if (!m) continue;
  port = m[1] ?? extra[i + 1] ?? "";
  extra.splice(i, m[1] === undefined ? 2 : 1);
  i--;
}
if (!/^\d{1,5}$/.test(port) || Number(port) > 65535) {
  process.stderr.write(`motebit-edge: --port / PORT must be a port number from 0 to 65535, got "${port}"\n`);
  process.exit(2);
}

/** Whether 127.0.0.1:p is taken; with p = 0, a free port. */
const listenOn = (p) =>
  new Promise((resolve) => {
    const probe = createServer();
    probe.once("error", (e) => resolve(e.code === "EADDRINUSE" ? "taken" : "free"));
    probe.listen(p, "127.0.0.1", () => {
      const free = probe.address().port;
      probe.close(() => resolve(p === 0 ? free : "free"));
    });
  });

// workerd on a taken port prints a 16-frame kj::Exception: look first, and say it in one line with the way out.
const taken = Number(port) !== 0 && (await listenOn(Number(port))) === "taken";
if (taken) {
  const other = Number(port) === 65535 ? 8790 : Number(port) + 1;
  process.stderr.write(`motebit-edge: 127.0.0.1:${port} is already in use (another npm start?): stop that one, or pick another port: PORT=${other} npm start (or npm start -- --port ${other})\n`);
  process.exit(1);
}

// --test-scheduled: the cron is triggered by hand locally (curl …/cdn-cgi/handler/scheduled, docs/relay.md), which
// wrangler would otherwise warn about at every start.
const args = [wrangler, "dev", "--local", "--ip", "127.0.0.1", "--port", port, "--test-scheduled"];
if (process.env.MOTEBIT_PERSIST_DIR) args.push("--persist-to", process.env.MOTEBIT_PERSIST_DIR);
// The local state holds the motebit's key (and a fleet's keys) in plain SQLite: made owner-only (0700) here, before
// wrangler makes it with the umask's usual 0755. A folder that already exists keeps its mode (docs/security.md).
const persistAt = extra.findIndex((a) => a === "--persist-to" || a.startsWith("--persist-to="));
const persist =
  process.env.MOTEBIT_PERSIST_DIR ||
  (persistAt < 0 ? path.join(root, ".wrangler", "state") : extra[persistAt].includes("=") ? extra[persistAt].slice("--persist-to=".length) : extra[persistAt + 1]);
if (persist) mkdirSync(path.resolve(root, persist), { recursive: true, mode: 0o700 });
// A second wrangler on the inspector's 9229 (another npm start, a test run) dies at start: take a free one then.
if (!extra.some((a) => a === "--inspector-port" || a.startsWith("--inspector-port=")) && (await listenOn(9229)) === "taken") {
  args.push("--inspector-port", String(await listenOn(0)));
}
args.push(...extra);

const envFiles = extra.flatMap((a, i) => (a === "--env-file" ? [extra[i + 1]] : a.startsWith("--env-file=") ? [a.slice("--env-file=".length)] : []));
const envFile = envFiles.length > 0;
// wrangler reads only the env files named once one is: .dev.vars would be dropped without a word.
if (envFile && existsSync(path.join(root, ".dev.vars")) && !extra.includes(".dev.vars") && !extra.includes("--env-file=.dev.vars")) {
  process.stderr.write("motebit-edge: --env-file replaces .dev.vars (not read now); to keep it too: npm start -- --env-file .dev.vars --env-file <yours>\n");
}
// Fail-closed means a bare `npm start` lets nobody in: say how to change that before the first 401 puzzles anyone.
if (!existsSync(path.join(root, ".dev.vars")) && !envFile) {
  process.stderr.write(
    "motebit-edge: no .dev.vars, so every /mcp request gets 401 (open access is never a default).\n" +
      "  cp .dev.vars.example .dev.vars and set MOTEBIT_AUTH_TOKEN, or MOTEBIT_PRIVATE_KEY for signed tokens (README).\n",
  );
}

const env = {
  ...process.env,
  // Offline: no telemetry, no error reports, no cf-object fetch, no banner (STACK.md).
  WRANGLER_SEND_METRICS: "false",
  WRANGLER_SEND_ERROR_REPORTS: "false",
  CLOUDFLARE_CF_FETCH_ENABLED: "false",
  WRANGLER_HIDE_BANNER: "true",
};

// An edge registered with a relay deregisters when it stops, or the relay keeps routing tasks to it. Ctrl-C signals
// the terminal's whole process group, workerd included, which would be gone before it could: so wrangler then runs
// in a group of its own (start-edge-group.mjs), and this script asks the edge to leave the relay first.
const relayFiles = envFile ? envFiles : [".dev.vars"];
const relayed =
  Boolean(process.env.MOTEBIT_SYNC_URL) ||
  extra.some((a) => a.startsWith("MOTEBIT_SYNC_URL:")) ||
  relayFiles.some((f) => existsSync(path.resolve(root, f)) && /^\s*MOTEBIT_SYNC_URL\s*=\s*\S/m.test(readFileSync(path.resolve(root, f), "utf8")));

const child = relayed
  ? spawn(process.execPath, [path.join(path.dirname(fileURLToPath(import.meta.url)), "start-edge-group.mjs"), String(process.pid), ...args], {
      cwd: root,
      stdio: ["ignore", "inherit", "inherit"],
      env,
      detached: true,
    })
  : spawn(process.execPath, args, { cwd: root, stdio: "inherit", env });

const signalChild = (signal) => {
  try {
    if (relayed) process.kill(-child.pid, signal);
    else child.kill(signal);
  } catch {
    /* already gone */
  }
};
let stopping = false;
async function stop(signal) {
  if (stopping) return signalChild("SIGKILL"); // a second Ctrl-C: now
  stopping = true;
  if (relayed && Number(port) !== 0) {
    // The Worker's scheduled handler takes this name as "leave the relay" (worker/create-worker.ts, LEAVE_RELAY_CRON).
    await fetch(`http://127.0.0.1:${port}/cdn-cgi/handler/scheduled?cron=${encodeURIComponent("motebit:leave-relay")}`, { signal: AbortSignal.timeout(3_000) }).catch(() => {});
  }
  signalChild(signal);
  if (relayed) setTimeout(() => signalChild("SIGKILL"), 5_000).unref();
}
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => void stop(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

// Settings are read when the motebit starts, at the first request: make that request now, so what cannot work is
// said here, at start, and not first to a client (every request would answer 503 with the same reason). Not for an
// edge with a relay: starting registers it, which the cron does (docs/relay.md), or its first request.
if (Number(port) !== 0 && !relayed) {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline && child.exitCode === null) {
    const res = await fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(5_000) }).catch(() => null);
    if (res?.ok) break;
    const body = await res?.json().catch(() => null);
    if (res?.status === 503 && typeof body?.error === "string" && typeof body?.hint === "string") {
      process.stderr.write(`motebit-edge: the motebit cannot start, so every request answers 503: ${body.error}\n  ${body.hint}\n`);
      break;
    }
    await new Promise((r) => setTimeout(r, 300));
  }
}

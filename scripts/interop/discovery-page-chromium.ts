// `npm run interop:page` (.ci/run runs it): the motebit's page at / checked in Debian's headless Chromium
// (scripts/interop/chromium.ts) on both HTTP hosts — the edge (wrangler dev --local, workerd) and motebit-local's
// HTTP serve. Per host: the page reads without script (name, motebit id, did:key, tools); with script it says "no
// log yet" (no /log/head here); a real motebit_task reply from that host, pasted as it came, is a valid receipt of
// this motebit; the same receipt changed by one field fails on its signature; a receipt of the other host fails on
// its signer; no Content-Security-Policy violation and no console error. On motebit-local (whose key this script
// can read) a tree head is served in /log/head's place, signed with the motebit's key, and the reply carries an
// inclusion proof in `_meta`: the page checks the proof against the head (RFC 9162), and refuses a wrong audit
// path; against a newer head it checks the log's consistency proof (and refuses one that does not join the two
// trees). SCREENSHOTS=<dir> writes the page's screenshots there (docs/images). One line per check; exits 1 when any
// fails, and within DEADLINE_MS whatever hangs.
import { createHash } from "node:crypto";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { launchChromium } from "./chromium.js";
import { startLocalEdge, type LocalEdge } from "../../test/node/edge/local-edge.js";
import { cleanEnv, startHttpServe, type HttpServe } from "../../test/node/local/helpers/local-cli.js";
import { base64urlEncode, canonicalJson, createSigner, utf8 } from "../../src/protocol/index.js";

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

const sha256 = (...parts: Buffer[]) => createHash("sha256").update(Buffer.concat(parts)).digest();

interface Opened {
  page: Page;
  problems: string[];
}

async function openPage(context: BrowserContext, url: string): Promise<Opened> {
  const page = await context.newPage();
  const problems: string[] = [];
  // The one load the page may see fail: /log/head where no log is served (401 or 404), which it reports as "no log yet".
  page.on("console", (m) => m.type() === "error" && !m.location().url.endsWith("/log/head") && problems.push(`console: ${m.text()}`));
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

async function checkHost(context: BrowserContext, scope: string, url: string, other: Json, signHead: ((tree: { size: number; root: string }) => Promise<Json>) | null): Promise<void> {
  await readableWithoutScript(context, scope, url);
  const { page, problems } = await openPage(context, `${url}/`);
  await page.waitForFunction(() => !(globalThis as any).document.getElementById("log-head")!.textContent!.includes("page's script reads"), undefined, { timeout: 10_000 });
  const head = await page.locator("#log-head").innerText();
  check(scope, "without a log at /log/head the page says so", head === "No log yet.", head);

  const reply = await taskReply(url, `a receipt for the page on ${scope}`);
  const good = await verify(page, reply);
  check(scope, "a real motebit_task reply, pasted as it came, is a valid receipt of this motebit", good.ok && good.checks.some((c) => c.startsWith("✓ Signer: this motebit")), `${good.verdict} | ${good.checks.join(" | ")}`);
  if (SCREENSHOTS !== undefined && signHead === null) {
    await page.screenshot({ path: join(SCREENSHOTS, "motebit-page.png") });
    await page.locator("#verifier").screenshot({ path: join(SCREENSHOTS, "motebit-page-valid-receipt.png") });
  }

  const receipt = receiptOf(reply);
  const tampered = await verify(page, JSON.stringify({ ...receipt, memories_formed: receipt.memories_formed + 1 }));
  check(scope, "the same receipt with one field changed fails on its signature", !tampered.ok && /Signature: the signature does not verify/.test(tampered.verdict), tampered.verdict);
  if (SCREENSHOTS !== undefined && signHead === null) await page.locator("#verifier").screenshot({ path: join(SCREENSHOTS, "motebit-page-tampered-receipt.png") });

  const foreign = await verify(page, JSON.stringify(other));
  check(scope, "a valid receipt of the other host's motebit fails on its signer", !foreign.ok && /Signer: not this motebit/.test(foreign.verdict) && foreign.checks[0].startsWith("✓ Signature"), foreign.verdict);

  if (signHead !== null) {
    // A two-leaf log: this receipt (leaf 0) and another; the proof for leaf 0 is the other leaf's hash.
    const leaf = (r: Json) => sha256(Buffer.from([0]), Buffer.from(canonicalJson(r)));
    const [h0, h1] = [leaf(receipt), leaf(other)];
    const root = sha256(Buffer.from([1]), h0, h1).toString("hex");
    const signed = await signHead({ size: 2, root });
    await page.route(`${url}/log/head`, (route) => route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify(signed) }));
    await page.reload();
    await page.waitForFunction(() => (globalThis as any).document.getElementById("log-head")!.textContent!.startsWith("Signed tree head"), undefined, { timeout: 10_000 }).catch(() => {});
    const shownHead = await page.locator("#log-head").innerText();
    check(scope, "a tree head signed with the motebit's key is shown as checked", shownHead.startsWith("Signed tree head: 2 receipts"), shownHead);
    const withProof = (auditPath: string[]) => {
      const m = messageOf(reply);
      m.result._meta = { ...(m.result._meta ?? {}), "dev.motebit/log": { leaf_index: 0, tree_size: 2, root_hash: root, audit_path: auditPath } };
      return JSON.stringify(m);
    };
    const included = await verify(page, withProof([h1.toString("hex")]));
    check(scope, "an inclusion proof in the reply's _meta checks against the signed tree head (RFC 9162)", included.ok && included.checks.some((c) => c.startsWith("✓ Inclusion: leaf 0")), included.checks.join(" | "));
    if (SCREENSHOTS !== undefined) await page.locator("#verifier").screenshot({ path: join(SCREENSHOTS, "motebit-page-inclusion.png") });
    const wrongPath = await verify(page, withProof([sha256(Buffer.from("not a leaf")).toString("hex")]));
    check(scope, "a wrong audit path fails on inclusion", !wrongPath.ok && /Inclusion: the inclusion proof does not lead to its root_hash/.test(wrongPath.verdict), wrongPath.verdict);

    // The log grew to three leaves: the page must go from the proof's tree (2) to the head's (3) by a consistency
    // proof (RFC 9162 §2.1.4), which for 2 → 3 is the third leaf's hash.
    const h2 = leaf({ task_id: "a third receipt" });
    const root3 = sha256(Buffer.from([1]), Buffer.from(root, "hex"), h2).toString("hex");
    const head3 = await signHead({ size: 3, root: root3 });
    let consistencyPath = [h2.toString("hex")];
    await page.unroute(`${url}/log/head`);
    await page.route(`${url}/log/head`, (route) => route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify(head3) }));
    await page.route(`${url}/log/consistency?first=2&second=3`, (route) => route.fulfill({ status: 200, contentType: "application/json", body: JSON.stringify({ first: 2, second: 3, consistency_path: consistencyPath }) }));
    await page.reload();
    await page.waitForFunction(() => (globalThis as any).document.getElementById("log-head")!.textContent!.startsWith("Signed tree head: 3"), undefined, { timeout: 10_000 }).catch(() => {});
    const grown = await verify(page, withProof([h1.toString("hex")]));
    check(scope, "against a newer head, the proof's tree is shown consistent with it (RFC 9162 §2.1.4.2)", grown.ok && grown.checks.some((c) => c.startsWith("✓ Inclusion: leaf 0") && c.includes("consistency proof joins")), grown.checks.join(" | "));
    consistencyPath = [sha256(Buffer.from("a forked log")).toString("hex")];
    const forked = await verify(page, withProof([h1.toString("hex")]));
    check(scope, "a consistency proof that does not join the two trees fails", !forked.ok && /is not consistent with the signed head/.test(forked.verdict), forked.verdict);
  }
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
  const [edgeReceipt, localReceipt] = [receiptOf(await taskReply(edge.url, "the edge's")), receiptOf(await taskReply(local.url, "motebit-local's"))];
  const signer = await createSigner(/[0-9a-f]{64}/.exec(readFileSync(join(dataDir, "motebit.key"), "utf8"))![0]);
  const signHead = async (tree: { size: number; root: string }): Promise<Json> => {
    const head = { tree_size: tree.size, root_hash: tree.root, timestamp: Date.now(), motebit_id: localReceipt.motebit_id, public_key: signer.publicKeyHex, suite: "motebit-jcs-ed25519-b64-v1" };
    return { ...head, signature: base64urlEncode(await signer.sign(utf8(canonicalJson(head)))) };
  };
  await checkHost(context, "edge (workerd)", edge.url, localReceipt, null);
  await checkHost(context, "motebit-local serve", local.url, edgeReceipt, signHead);
}

const deadline = setTimeout(() => {
  process.stderr.write(`interop: the page check did not finish in ${DEADLINE_MS / 1000} s\n`);
  void cleanUp().finally(() => process.exit(1));
}, DEADLINE_MS);
main()
  .then(
    () => failures === 0,
    (e) => {
      process.stderr.write(`interop: ${(e as Error).stack ?? e}\n`);
      return false;
    },
  )
  .then(async (passed) => {
    await cleanUp();
    clearTimeout(deadline);
    process.exit(passed ? 0 : 1);
  });

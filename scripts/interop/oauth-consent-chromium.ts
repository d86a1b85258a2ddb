// `npm run interop:consent`: the consent page in a real browser — Debian's headless Chromium driven by playwright-core
// (CHROMIUM overrides /usr/bin/chromium). The Node host's app serves it on 127.0.0.1; the script registers a client,
// opens /authorize, checks the page raises no CSP violation and runs no script, writes the screenshot to
// .cache/interop/consent-page.png (CONSENT_SCREENSHOT=<path> for another; never the tracked docs/images/ copy by
// itself: replace that by hand once the new one is checked), then pastes the owner's approval, presses Approve and checks the browser lands on the client's
// redirect URI with a code (the CSP's form-action and the SameSite cookie hold in a real browser). A second page
// tries to post the form from another origin and must be refused. One line per check; exits 1 when any fails.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { resolve } from "node:path";
import { serve } from "@hono/node-server";
import { chromium } from "playwright-core";
import { signApproval, type RequestDetails } from "../../src/oauth/approval.js";
import { base64urlEncode, createSigner, utf8 } from "../../src/protocol/index.js";
import keys from "../../test/fixtures/edge/keys.json";
import { nodeApp } from "../../test/node/helpers/node-app.js";

const SCREENSHOT = resolve(process.env.CONSENT_SCREENSHOT || resolve(import.meta.dirname, "../../.cache/interop/consent-page.png"));
let failures = 0;
function check(name: string, ok: boolean, detail: string): void {
  if (!ok) failures++;
  process.stdout.write(`${ok ? "PASS" : "FAIL"} consent page in Chromium: ${name} — ${detail}\n`);
}

function listen(server: Server): Promise<string> {
  return new Promise((done) => server.listen(0, "127.0.0.1", () => done(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)));
}

async function main(): Promise<void> {
  const { app } = await nodeApp();
  const motebit = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
  await new Promise((r) => motebit.once("listening", r));
  const base = `http://127.0.0.1:${(motebit.address() as AddressInfo).port}`;
  // The client's redirect URI: a page that shows what it was given.
  const callback = createServer((req, res) => res.writeHead(200, { "Content-Type": "text/plain" }).end(`callback ${req.url}`));
  const clientBase = await listen(callback);
  const evil = createServer((_req, res) => res.writeHead(200, { "Content-Type": "text/html" }).end("<p>elsewhere</p>"));
  const evilBase = await listen(evil);
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium", args: ["--no-sandbox"] });
  try {
    const redirectUri = `${clientBase}/callback`;
    const reg = (await (await fetch(`${base}/register`, { method: "POST", body: JSON.stringify({ client_name: "Claude (example)", redirect_uris: [redirectUri] }) })).json()) as { client_id: string };
    const challenge = base64urlEncode(new Uint8Array(await crypto.subtle.digest("SHA-256", utf8("chromium-verifier-".padEnd(50, "x")))));
    const q = new URLSearchParams({ response_type: "code", client_id: reg.client_id, redirect_uri: redirectUri, code_challenge: challenge, code_challenge_method: "S256", state: "st", resource: `${base}/mcp` });

    const page = await browser.newPage({ viewport: { width: 760, height: 1100 } });
    const problems: string[] = [];
    page.on("console", (m) => m.type() === "error" && problems.push(m.text()));
    page.on("pageerror", (e) => problems.push(e.message));
    const opened = await page.goto(`${base}/authorize?${q}`);
    check("the page opens", opened?.status() === 200, `HTTP ${opened?.status()}`);
    const code = (await page.locator(".code").textContent())?.trim() ?? "";
    check("it shows the client, its redirect host and the request code", (await page.content()).includes("Claude (example)") && (await page.content()).includes(new URL(clientBase).host) && /^[A-Z0-9]{4}-[A-Z0-9]{4}$/.test(code), code);
    check("no CSP violation, no script", problems.length === 0 && (await page.locator("script").count()) === 0, problems.join("; ") || "none");
    await page.screenshot({ path: SCREENSHOT, fullPage: true });
    check("screenshot written", true, SCREENSHOT);

    // A form on another origin, posting to the consent endpoint: no SameSite=Strict cookie, a foreign Origin.
    const attacker = await browser.newPage();
    await attacker.goto(evilBase);
    const forged = await attacker.evaluate(async ([action, request]) => {
      const r = await fetch(action, { method: "POST", mode: "no-cors", body: new URLSearchParams({ request, csrf: "guess", decision: "deny", approval: "" }) });
      return r.type;
    }, [`${base}/authorize`, code]);
    const stillOpen = await fetch(`${base}/oauth/requests/${code}`);
    check("a post from another origin changes nothing", stillOpen.status === 200, `request still pending after a cross-site post (${forged})`);

    const details = (await stillOpen.json()) as RequestDetails;
    await page.fill("#approval", await signApproval(details, "verified", await createSigner(keys.server.seed_hex)));
    await Promise.all([page.waitForURL(`${clientBase}/**`), page.click('button[value="approve"]')]).catch(async (e) => {
      process.stderr.write(`after Approve: ${page.url()}\n${(await page.content()).slice(0, 3000)}\n${problems.join("\n")}\n`);
      throw e;
    });
    const landed = new URL(page.url());
    check("Approve lands on the client's redirect URI with a code and the state", landed.pathname === "/callback" && landed.searchParams.has("code") && landed.searchParams.get("state") === "st", `${landed.origin}${landed.pathname}?…`);
  } finally {
    await browser.close();
    motebit.close();
    callback.close();
    evil.close();
  }
}

main().then(
  () => process.exit(failures === 0 ? 0 : 1),
  (e) => {
    process.stderr.write(`interop: ${(e as Error).stack ?? e}\n`);
    process.exit(1);
  },
);

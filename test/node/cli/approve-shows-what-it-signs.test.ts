// What the owner reads is what the owner signs: "oauth approve" and "fleet approve" show a request's strings with
// control characters, escapes and bidi overrides written out (\u{1b}), never run by the terminal; they refuse a
// request other than the code typed, or for another URL than --url. The server here is a look-alike: it answers
// whatever it likes, as a hostile or mistaken one would.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import keys from "../../fixtures/edge/keys.json";
import { nodeApp } from "../helpers/node-app.js";
import { openConsent, REDIRECT_URI } from "../../shared/oauth-driver.js";
import { runCli, tempDir } from "./run-cli.js";

vi.setConfig({ testTimeout: 90_000 });

const FORGED_REDIRECT = "https://evil.example/cb\r\u001b[2Khttps://claude.ai/api/mcp/auth_callback";
const FORGED_NAME = "Claude\u202e\u001b]0;owned\u0007";
const CODE = "ABCD-EFGH";

let url = "";
let server: Server;
/** What the look-alike answers next, given the base URL it runs at. */
let answer: (base: string) => Record<string, unknown> = () => ({});
const dir = tempDir();
const keyFile = join(dir, "motebit.key");
const tokenFile = join(dir, "operator.token");

const details = (base: string, over: Record<string, unknown> = {}) => ({
  motebit_id: keys.server.sovereign_motebit_id, request: CODE, client_id: "mcp_forged", client_name: FORGED_NAME, redirect_uri: FORGED_REDIRECT,
  code_challenge: "c".repeat(43), resource: `${base}/mcp`, expires_at: Date.now() + 600_000, ...over,
});

beforeAll(async () => {
  writeFileSync(keyFile, keys.server.seed_hex + "\n", { mode: 0o600 });
  writeFileSync(tokenFile, "operator-token-of-the-test\n", { mode: 0o600 });
  server = createServer((req, res) => {
    res.writeHead(200, { "Content-Type": "application/json" });
    res.end(JSON.stringify(answer(url)));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const RAW = /[\r\u001b\u0007\u202e]/;

describe("oauth approve", () => {
  it("shows a forged redirect URI and name escaped, and the real host of the redirect", async () => {
    answer = (base) => details(base);
    const r = await runCli(["oauth", "approve", CODE, "--url", url, "--key", keyFile]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(RAW);
    expect(r.stderr).toContain("sends the code to evil.example:");
    expect(r.stderr).toContain("\\u{d}\\u{1b}[2K");
    expect(r.stderr).toContain("Claude\\u{202e}\\u{1b}]0;owned\\u{7}");
    expect(r.stdout.trim()).toMatch(/^[\x21-\x7e]+$/);
  });

  it("shows the scopes it signs (all four from a server that names none), and refuses scopes it does not know", async () => {
    answer = (base) => details(base, { scope: "motebit:read motebit:task" });
    const narrow = await runCli(["oauth", "approve", CODE, "--url", url, "--key", keyFile]);
    expect(narrow.code, narrow.stderr).toBe(0);
    expect(narrow.stderr).toContain("    motebit:read: connect");
    expect(narrow.stderr).toContain("    motebit:task: give the motebit tasks");
    expect(narrow.stderr).not.toContain("motebit:remember");
    answer = (base) => details(base);
    expect((await runCli(["oauth", "approve", CODE, "--url", url, "--key", keyFile])).stderr).toContain("    motebit:remember: store and recall");
    answer = (base) => details(base, { scope: "motebit:read admin\u001b[2K" });
    const unknown = await runCli(["oauth", "approve", CODE, "--url", url, "--key", keyFile]);
    expect([unknown.code, unknown.stdout]).toEqual([1, ""]);
    expect(unknown.stderr).toContain("asks for scopes this release does not know");
    expect(unknown.stderr).not.toMatch(RAW);
  });

  it("refuses a request other than the code typed, and signs nothing", async () => {
    answer = (base) => details(base, { request: "ZZZZ-ZZZZ" });
    const r = await runCli(["oauth", "approve", CODE, "--url", url, "--key", keyFile]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("not ABCD-EFGH as typed");
  });

  it("refuses a request for another resource than --url names, and signs nothing", async () => {
    answer = () => details("https://real-motebit.example");
    const r = await runCli(["oauth", "approve", CODE, "--url", url, "--key", keyFile]);
    expect(r.code).toBe(1);
    expect(r.stdout).toBe("");
    expect(r.stderr).toContain("as given with --url; nothing was signed");
  });
});

describe("fleet approve", () => {
  it("shows the request the Worker signed escaped on stderr, and prints only the approval", async () => {
    answer = (base) => ({ approval: "signed.approval", request: details(`${base}/m/alpha`) });
    const r = await runCli(["fleet", "approve", "alpha", CODE, "--url", url, "--token-file", tokenFile]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).not.toMatch(RAW);
    expect(r.stderr).toContain("sends the code to evil.example:");
    expect(r.stdout).toBe("signed.approval\n");
  });

  it("refuses an answer for another code or another motebit", async () => {
    answer = (base) => ({ approval: "signed.approval", request: details(`${base}/m/alpha`, { request: "ZZZZ-ZZZZ" }) });
    const wrongCode = await runCli(["fleet", "approve", "alpha", CODE, "--url", url, "--token-file", tokenFile]);
    expect(wrongCode.code).toBe(1);
    expect(wrongCode.stdout).toBe("");
    answer = (base) => ({ approval: "signed.approval", request: details(`${base}/m/beta`) });
    const wrongMotebit = await runCli(["fleet", "approve", "alpha", CODE, "--url", url, "--token-file", tokenFile]);
    expect(wrongMotebit.code).toBe(1);
    expect(wrongMotebit.stdout).toBe("");
  });
});

describe("the consent page", () => {
  it("shows the client's name through the same escapes", async () => {
    const { app } = await nodeApp();
    const fetchFn = async (u: string | URL, init?: RequestInit) => app.fetch(new Request(u, init));
    const reg = await fetchFn("https://motebit.test/register", { method: "POST", body: JSON.stringify({ client_name: FORGED_NAME, redirect_uris: [REDIRECT_URI] }) });
    const { client_id } = (await reg.json()) as { client_id: string };
    const q = new URLSearchParams({ response_type: "code", client_id, redirect_uri: REDIRECT_URI, code_challenge: "c".repeat(43), code_challenge_method: "S256" });
    const page = await openConsent(fetchFn, `https://motebit.test/authorize?${q}`);
    expect(page.html).not.toMatch(RAW);
    expect(page.html).toContain("Claude\\u{202e}\\u{1b}]0;owned\\u{7} asks to connect");
  });
});

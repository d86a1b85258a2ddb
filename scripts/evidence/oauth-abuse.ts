// OAuth abuse on a running host: an anonymous flood from one source (registrations, then consent requests) and a
// legitimate MCP host connecting from another source after it; then the forged-terminal approval: a redirect URI
// carrying \r and an escape sequence is refused at registration, and what `motebit-local oauth approve` prints for
// a client whose name carries them (the real host) or whose redirect URI does (a look-alike server) is escaped.
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { runToCompletion } from "../../test/node/helpers/child-process.js";
import { fetchFrom, flood, FLOOD_SOURCE, legitimateHostConnects } from "../../test/shared/oauth-flood.js";
import { openConsent, REDIRECT_URI } from "../../test/shared/oauth-driver.js";
import type { Outcome } from "./scenarios.js";

const ROOT = path.resolve(import.meta.dirname, "../..");
const BIN = path.join(ROOT, "local-stdio/bin/motebit-local.js");
const FORGED = "\r\u001b[2K\u202e";
const RAW = /[\r\u001b\u202e]/;

async function approveWithCli(url: string, code: string, keyFile: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return runToCompletion(process.execPath, [BIN, "oauth", "approve", code, "--url", url, "--key", keyFile, "--trust", "verified"], { timeoutMs: 30_000 });
}

export async function oauthAbuse(hostName: string, url: string, seedHex: string, o: { registrations: number; authorizes: number }): Promise<Outcome> {
  const lines: string[] = [];
  const failures: string[] = [];
  // The CLI runs from its bundle, built from the current sources as the tests build it.
  execFileSync(process.execPath, [path.join(ROOT, "local-stdio/scripts/build.mjs")], { stdio: "ignore" });
  const dir = mkdtempSync(path.join(tmpdir(), "motebit-oauth-evidence-"));
  const keyFile = path.join(dir, "motebit.key");
  writeFileSync(keyFile, seedHex + "\n", { mode: 0o600 });
  try {
    const t0 = performance.now();
    const r = await flood(fetchFrom(FLOOD_SOURCE), url, { ...o, concurrency: 8 });
    const floodMs = performance.now() - t0;
    lines.push(
      `oauth-flood ${hostName}: ${o.registrations} POST /register + ${o.authorizes} GET /authorize from ${FLOOD_SOURCE} in ${(floodMs / 1000).toFixed(1)} s: ` +
        `register ${JSON.stringify(r.register)}, authorize ${JSON.stringify(r.authorize)}, Retry-After on every 429: ${r.retryAfterOnEvery429}`,
    );
    if (r.register[503] || r.authorize[303] || r.authorize[503]) failures.push(`oauth-flood ${hostName}: the flood got 503 or temporarily_unavailable`);
    if (!(r.register[429] > 0) || !r.retryAfterOnEvery429) failures.push(`oauth-flood ${hostName}: the flood was not rate-limited with Retry-After`);
    const t1 = performance.now();
    try {
      const text = await legitimateHostConnects(`${url}/mcp`, async (code) => {
        const a = await approveWithCli(url, code, keyFile);
        if (a.code !== 0) throw new Error(`oauth approve: ${a.stderr.trim()}`);
        return a.stdout.trim();
      });
      if (!text.includes("task_id")) throw new Error(`motebit_task answered ${text.slice(0, 100)}`);
      lines.push(`oauth-flood ${hostName}: then an MCP host from 127.0.0.1 registered, was approved with the CLI and ran motebit_task in ${Math.round(performance.now() - t1)} ms`);
    } catch (e) {
      failures.push(`oauth-flood ${hostName}: a legitimate host could not connect after the flood: ${(e as Error).message}`);
    }

    // The forged terminal: refused at registration, shown escaped where it can still be stored (a client's name).
    const forgedRedirect = await fetch(`${url}/register`, { method: "POST", body: JSON.stringify({ client_name: "x", redirect_uris: [`https://evil.example/cb${FORGED}https://claude.ai/cb`] }) });
    const refusal = (await forgedRedirect.json()) as { error?: string };
    lines.push(`oauth-forged ${hostName}: a redirect URI with \\r, ESC and U+202E at /register: HTTP ${forgedRedirect.status} ${refusal.error}`);
    if (forgedRedirect.status !== 400) failures.push(`oauth-forged ${hostName}: a redirect URI with control characters was registered`);
    const reg = (await (await fetch(`${url}/register`, { method: "POST", body: JSON.stringify({ client_name: `Claude${FORGED}`, redirect_uris: [REDIRECT_URI] }) })).json()) as { client_id: string };
    const q = new URLSearchParams({ response_type: "code", client_id: reg.client_id, redirect_uri: REDIRECT_URI, code_challenge: "c".repeat(43), code_challenge_method: "S256" });
    const page = await openConsent(fetch, `${url}/authorize?${q}`);
    const shown = await approveWithCli(url, page.code, keyFile);
    const nameLine = shown.stderr.split("\n").find((l) => l.startsWith("Approving")) ?? "";
    lines.push(`oauth-forged ${hostName}: oauth approve shows the forged name as ${nameLine.slice(0, 60)}…; raw control characters on the terminal: ${RAW.test(shown.stderr) ? "yes" : "none"}`);
    if (shown.code !== 0 || RAW.test(shown.stderr) || RAW.test(page.html)) failures.push(`oauth-forged ${hostName}: the forged name reached the terminal or page unescaped`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { lines, failures };
}

/** Once, host-independent: a look-alike server hands the CLI a forged redirect URI, then another request than typed. */
export async function lookAlikeApproval(seedHex: string, motebitId: string): Promise<Outcome> {
  const lines: string[] = [];
  const failures: string[] = [];
  const dir = mkdtempSync(path.join(tmpdir(), "motebit-oauth-evidence-"));
  const keyFile = path.join(dir, "motebit.key");
  writeFileSync(keyFile, seedHex + "\n", { mode: 0o600 });
  let request = "ABCD-EFGH";
  const server = createServer((_, res) => {
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    res.writeHead(200, { "Content-Type": "application/json" });
    res.end(JSON.stringify({
      motebit_id: motebitId, request, client_id: "mcp_x", client_name: "Claude", redirect_uri: `https://evil.example/cb${FORGED}https://claude.ai/cb`,
      code_challenge: "c".repeat(43), resource: `${base}/mcp`, expires_at: Date.now() + 600_000,
    }));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  try {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const shown = await approveWithCli(url, "ABCD-EFGH", keyFile);
    const target = shown.stderr.split("\n").find((l) => l.includes("sends the code to")) ?? "";
    lines.push(`oauth-forged look-alike: oauth approve shows${target.slice(0, 120)}; raw control characters: ${RAW.test(shown.stderr) ? "yes" : "none"}`);
    if (RAW.test(shown.stderr) || !target.includes("evil.example")) failures.push("oauth-forged look-alike: the forged redirect URI reached the terminal unescaped");
    request = "ZZZZ-ZZZZ";
    const other = await approveWithCli(url, "ABCD-EFGH", keyFile);
    lines.push(`oauth-forged look-alike: a request other than the code typed: exit ${other.code}, ${other.stdout === "" ? "nothing signed" : "SIGNED"}`);
    if (other.code === 0 || other.stdout !== "") failures.push("oauth-forged look-alike: an approval was signed for another request than typed");
  } finally {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  }
  return { lines, failures };
}

// `npm run interop:relay -- <path to a motebit/motebit checkout> [node|edge]`: the relay loop against the reference relay itself
// (services/relay, started from that checkout on 127.0.0.1), on both hosts (motebit-local serve over HTTP, and the
// edge under wrangler dev --local), each in signed mode and with apiToken = the relay's API token. One line per
// check; exits 1 when any check fails. Not part of `npm test`: the checkout is not on the registry.
import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { createSigner, generateSeedHex, mintBearerToken, sovereignMotebitId, verifyReceipt, type Signer } from "../../src/protocol/index.js";
import { freePort, startLocalEdge } from "../../test/node/edge/local-edge.js";
import { cleanEnv, initMotebit, startHttpServe } from "../../test/node/local/helpers/local-cli.js";
import { startReferenceRelay, type ReferenceRelay } from "./reference-relay.js";

const REPO = resolve(import.meta.dirname, "../..");
const CACHE = join(REPO, ".cache/interop-relay");
const TOOLS = join(REPO, "examples/tools/index.ts");
const AUTH_TOKEN = `owner-${crypto.randomUUID()}`;
const HEARTBEAT_MS = 2_000;
const SELF_TEST_LINE = /self-test \w+: [^\n]*\(next: [^\n]*\)/;

let failures = 0;
function check(scope: string, name: string, ok: boolean, detail: string): void {
  if (!ok) failures++;
  process.stdout.write(`${ok ? "PASS" : "FAIL"} ${scope}: ${name} — ${detail}\n`);
}
const note = (line: string) => process.stderr.write(`interop: ${line}\n`);

async function waitFor<T>(check: () => Promise<T | undefined> | T | undefined, timeoutMs: number, everyMs = 250): Promise<T | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined) return v;
    if (Date.now() > deadline) return undefined;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** A host under test: where it is served, who it is, what it logged, and how to stop it (null: it cannot be stopped). */
interface Host {
  url: string;
  motebitId: string;
  publicKeyHex: string;
  output(): string;
  /** SIGTERM to the host (npm start's wrapper deregisters the edge first, as motebit-local does), until it exits. */
  sigterm: () => Promise<unknown>;
  stop(): Promise<unknown>;
}

type Mode = "signed" | "apiToken";

async function startNode(relay: ReferenceRelay, mode: Mode, dir: string): Promise<Host> {
  const identity = await initMotebit(join(dir, `node-${mode}`), ["--type", "service", "--name", `interop node ${mode}`]);
  const motebitId = /motebit_id: "([^"]+)"/.exec(readFileSync(identity, "utf8"))![1];
  const config = join(dir, `node-${mode}.json`);
  writeFileSync(config, JSON.stringify({ authToken: AUTH_TOKEN }));
  chmodSync(config, 0o600);
  const serve = await startHttpServe(
    ["--identity", identity, "--tools", TOOLS, "--config", config, "--self-test", "--serve-port", String(await freePort())],
    cleanEnv({
      MOTEBIT_SYNC_URL: relay.url,
      MOTEBIT_RELAY_FORWARD_TOKEN: relay.apiToken,
      MOTEBIT_RELAY_HEARTBEAT_MS: String(HEARTBEAT_MS),
      ...(mode === "apiToken" ? { MOTEBIT_RELAY_API_TOKEN: relay.apiToken } : {}),
    }),
  );
  const publicKeyHex = /public_key: "([0-9a-f]{64})"/.exec(readFileSync(identity, "utf8"))?.[1] ?? "";
  return { url: serve.url, motebitId, publicKeyHex, output: serve.stderr, sigterm: serve.stop, stop: serve.stop };
}

async function startEdge(relay: ReferenceRelay, mode: Mode): Promise<Host> {
  const seed = generateSeedHex();
  const signer = await createSigner(seed);
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const edge = await startLocalEdge(
    {
      MOTEBIT_PRIVATE_KEY: seed,
      MOTEBIT_AUTH_TOKEN: AUTH_TOKEN,
      MOTEBIT_PUBLIC_URL: url,
      MOTEBIT_SYNC_URL: relay.url,
      MOTEBIT_RELAY_FORWARD_TOKEN: relay.apiToken,
      MOTEBIT_SELF_TEST: "1",
      MOTEBIT_RELAY_HEARTBEAT_MS: String(HEARTBEAT_MS),
      ...(mode === "apiToken" ? { MOTEBIT_RELAY_API_TOKEN: relay.apiToken } : {}),
    },
    { port, probe: "preflight", readyTimeoutMs: 120_000 },
  );
  // The cron trigger wakes a fresh deployment, which registers on its alarm.
  await fetch(`${edge.url}/cdn-cgi/handler/scheduled`).then((r) => r.text());
  return { url: edge.url, motebitId: await sovereignMotebitId(signer.publicKeyHex), publicKeyHex: signer.publicKeyHex, output: edge.output, sigterm: edge.stop, stop: edge.stop };
}

async function agentRecord(relay: ReferenceRelay, id: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await fetch(`${relay.url}/api/v1/agents/${encodeURIComponent(id)}`, { headers: { Authorization: `Bearer ${relay.apiToken}` } });
  return { status: res.status, body: (await res.json().catch(() => ({}))) as Record<string, unknown> };
}

async function relayState(host: Host): Promise<Record<string, unknown> | null> {
  const client = new Client({ name: "interop-state", version: "1" });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL(`${host.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${AUTH_TOKEN}` } } }));
    const r = await client.readResource({ uri: "motebit://state" });
    return (JSON.parse((r.contents[0] as { text: string }).text) as { relay?: Record<string, unknown> }).relay ?? null;
  } catch {
    return null;
  } finally {
    await client.close().catch(() => undefined);
  }
}

/** A third party: its own key, bootstrapped at the relay, submitting and polling with its own signed tokens. */
async function thirdParty(relay: ReferenceRelay): Promise<{ id: string; signer: Signer; token(aud: string): Promise<string> }> {
  const signer = await createSigner(generateSeedHex());
  const id = await sovereignMotebitId(signer.publicKeyHex);
  const deviceId = crypto.randomUUID();
  const res = await fetch(`${relay.url}/api/v1/agents/bootstrap`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ motebit_id: id, device_id: deviceId, public_key: signer.publicKeyHex }),
  });
  if (!res.ok) throw new Error(`third party bootstrap: ${res.status} ${await res.text()}`);
  return { id, signer, token: (aud) => mintBearerToken({ mid: id, did: deviceId, aud, ttlMs: 60_000 }, signer) };
}

async function thirdPartyTask(relay: ReferenceRelay, host: Host, scope: string): Promise<void> {
  const party = await thirdParty(relay);
  const submitted = await fetch(`${relay.url}/agent/${host.motebitId}/task`, {
    method: "POST",
    headers: { Authorization: `Bearer ${await party.token("task:submit")}`, "Content-Type": "application/json", "Idempotency-Key": crypto.randomUUID() },
    body: JSON.stringify({ prompt: "the quick brown fox jumps", required_capabilities: ["word_count"] }),
  });
  const body = (await submitted.json()) as { task_id?: string; routing_choice?: { selected_agent?: string } | null };
  const routed = body.routing_choice?.selected_agent === host.motebitId;
  check(scope, "third party's task routed to us", submitted.status === 201 && routed, `submit ${submitted.status}, routing_choice.selected_agent ${JSON.stringify(body.routing_choice?.selected_agent ?? null)}`);
  if (typeof body.task_id !== "string") return;
  const taskId = body.task_id;
  const done = await waitFor(async () => {
    const r = await fetch(`${relay.url}/agent/${host.motebitId}/task/${taskId}`, { headers: { Authorization: `Bearer ${await party.token("task:query")}` } });
    const j = (await r.json()) as { task?: { status?: string }; receipt?: Record<string, unknown> | null };
    return j.task?.status === "completed" && j.receipt ? j.receipt : undefined;
  }, 60_000, 500);
  if (done === undefined) {
    check(scope, "third party's task runs word_count", false, `task ${taskId} not completed with a receipt within 60 s`);
    return;
  }
  const verdict = await verifyReceipt(done);
  const tools = JSON.stringify(done.tools_used);
  const ok = verdict.valid && tools === '["word_count"]' && done.relay_task_id === taskId && done.public_key === host.publicKeyHex;
  check(scope, "third party's task runs word_count", ok, `receipt ${verdict.valid ? "verifies" : `fails (${verdict.errors.join("; ")})`}, tools_used ${tools}, relay_task_id ${done.relay_task_id === taskId ? "= the task id" : JSON.stringify(done.relay_task_id)}, result ${JSON.stringify(String(done.result).slice(0, 60))}`);
}

async function forwardBearer(host: Host, scope: string): Promise<void> {
  const init = (auth: string | null) =>
    fetch(`${host.url}/mcp`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...(auth ? { Authorization: auth } : {}) },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "relay-forward", version: "1.0.0" } } }),
    }).then(async (r) => {
      await r.body?.cancel();
      return r.status;
    });
  const [wrong, none] = [await init("Bearer not-the-relay-token"), await init(null)];
  check(scope, "wrong or missing forward bearer is 401", wrong === 401 && none === 401, `wrong bearer ${wrong}, no header ${none}`);
}

async function runHost(kind: "node" | "edge", mode: Mode, checkout: string, dir: string): Promise<void> {
  const scope = `${kind} ${mode}`;
  const relay = await startReferenceRelay(checkout, CACHE, note);
  let host: Host | null = null;
  try {
    host = kind === "node" ? await startNode(relay, mode, dir) : await startEdge(relay, mode);
    const h = host;
    const record = await waitFor(async () => {
      const r = await agentRecord(relay, h.motebitId);
      return r.status === 200 ? r.body : undefined;
    }, 60_000);
    check(scope, "register", record !== undefined && record.endpoint_url === h.url && record.public_key === h.publicKeyHex, record ? `agent record: endpoint ${String(record.endpoint_url)}, key ${String(record.public_key).slice(0, 12)}…, capabilities ${JSON.stringify(record.capabilities)}` : `no agent record within 60 s; ${lastRelayLine(h.output())}`);
    const line = await waitFor(() => SELF_TEST_LINE.exec(h.output())?.[0], 90_000);
    const wanted = mode === "signed" ? "auth_verified" : "passed";
    check(scope, `self-test ${wanted}`, line?.startsWith(`self-test ${wanted}:`) === true, line ?? "no self-test line within 90 s");
    const registeredAt = Date.now();
    const state = await waitFor(async () => {
      const s = await relayState(h);
      return s && typeof s.last_success_at === "number" && s.last_success_at > registeredAt ? s : undefined;
    }, 4 * HEARTBEAT_MS + 10_000, 500);
    const heartbeatErrors = h.output().match(/motebit: relay: heartbeat: [^\n]*/g) ?? [];
    check(scope, "heartbeat", state !== undefined && heartbeatErrors.length === 0, state ? `accepted (state: registered ${String(state.registered)}, last success after registration)` : `no accepted heartbeat; ${heartbeatErrors[0] ?? lastRelayLine(h.output())}`);
    if (mode === "signed") {
      await thirdPartyTask(relay, h, scope);
      await forwardBearer(h, scope);
    }
    const started = Date.now();
    await h.sigterm();
    const gone = await waitFor(async () => ((await agentRecord(relay, h.motebitId)).status === 404 ? Date.now() - started : undefined), 5_000, 100);
    check(scope, "SIGTERM deregisters within 5 s", gone !== undefined, gone !== undefined ? `agent record gone ${gone} ms after SIGTERM` : `still registered 5 s after SIGTERM; ${lastRelayLine(h.output())}`);
    host = null;
  } catch (e) {
    check(scope, "run", false, (e as Error).message.split("\n")[0]);
  } finally {
    await host?.stop();
    await relay.stop();
  }
}

function lastRelayLine(output: string): string {
  const lines = output.match(/motebit: relay: [^\n]*/g);
  return lines ? lines[lines.length - 1] : "the host logged nothing about the relay";
}

async function main(): Promise<void> {
  const checkout = process.argv[2];
  if (!checkout) {
    process.stderr.write("usage: npm run interop:relay -- <path to a motebit/motebit checkout> [node|edge]\n");
    process.exit(2);
  }
  const build = spawnSync(process.execPath, [join(REPO, "local-stdio/scripts/build.mjs")], { cwd: REPO, stdio: ["ignore", process.stderr, process.stderr] });
  if (build.status !== 0) throw new Error("building motebit-local failed");
  const dir = mkdtempSync(join(tmpdir(), "motebit-interop-relay-"));
  try {
    const only = process.argv[3];
    for (const kind of ["node", "edge"] as const) if (only === undefined || only === kind) for (const mode of ["signed", "apiToken"] as const) await runHost(kind, mode, resolve(checkout), dir);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  process.stdout.write(failures === 0 ? "interop:relay: all checks passed\n" : `interop:relay: ${failures} check(s) failed\n`);
  process.exit(failures === 0 ? 0 : 1);
}

main().catch((e) => {
  process.stderr.write(`interop:relay: ${(e as Error).stack ?? e}\n`);
  process.exit(1);
});

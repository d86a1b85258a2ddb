// `npm run interop:prometheus` (.ci/run runs it, installing Debian's prometheus when absent): a real Prometheus scrapes
// motebit-local's loopback metrics port while an MCP caller makes calls over HTTP, and Prometheus's own query API must
// show the calls (mcp.server.operation.duration's count per method and tool) and the refusals by kind. The MCP
// listener must not serve the metrics, to any caller. PROMETHEUS overrides /usr/bin/prometheus. One line per check;
// exits 1 when any fails, and within DEADLINE_MS whatever hangs; Prometheus and the motebit are stopped either way.
import { spawn, type ChildProcess } from "node:child_process";
import { chmodSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { cleanEnv, freePort, initMotebit, startHttpServe, tempDir, type HttpServe } from "../../test/node/local/helpers/local-cli.js";

const PROMETHEUS = process.env.PROMETHEUS ?? "/usr/bin/prometheus";
const TOKEN = `prometheus-${crypto.randomUUID()}`;
const DEADLINE_MS = 120_000;
const CALLS = 3;
/** One tool the service governance runs (R0) and one it denies (R4): calls to count and a refusal to count. */
const TOOLS = `export default [
  { definition: { name: "shout", description: "Upper-cases text.", inputSchema: { type: "object", properties: { text: { type: "string" } } }, risk: "R0_READ" },
    handler: (args) => ({ ok: true, data: String(args.text).toUpperCase() }) },
  { definition: { name: "pay", description: "Moves money.", inputSchema: { type: "object", properties: { amount: { type: "number" } } }, risk: "R4_MONEY" },
    handler: () => ({ ok: true, data: "paid" }) },
];
`;

let failures = 0;
function check(name: string, ok: boolean, detail: string): void {
  if (!ok) failures++;
  process.stdout.write(`${ok ? "PASS" : "FAIL"} prometheus: ${name} — ${detail}\n`);
}

async function until<T>(what: string, ms: number, probe: () => Promise<T | undefined>): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe().catch(() => undefined);
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error(`${what}: not within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

interface Sample {
  metric: Record<string, string>;
  value: [number, string];
}

async function query(api: string, q: string): Promise<Sample[]> {
  const body = (await (await fetch(`${api}/api/v1/query?query=${encodeURIComponent(q)}`)).json()) as { status: string; data: { result: Sample[] } };
  return body.status === "success" ? body.data.result : [];
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((r) => {
    const kill = setTimeout(() => child.kill("SIGKILL"), 5_000);
    child.once("close", () => {
      clearTimeout(kill);
      r();
    });
    child.kill("SIGTERM");
  });
}

async function main(): Promise<void> {
  const tmp = tempDir();
  let server: HttpServe | undefined;
  let prometheus: ChildProcess | undefined;
  try {
    const identity = await initMotebit(tmp.dir, ["--type", "service", "--name", "prometheus-check"]);
    const config = join(tmp.dir, "motebit.json");
    writeFileSync(config, JSON.stringify({ authToken: TOKEN }));
    chmodSync(config, 0o600);
    const tools = join(tmp.dir, "tools.mjs");
    writeFileSync(tools, TOOLS);
    server = await startHttpServe(["--identity", identity, "--tools", tools, "--config", config, "--serve-port", "0", "--metrics-port", "0"], cleanEnv());
    const metricsUrl = /Prometheus scrape at (http:\/\/\S+)/.exec(server.stderr())?.[1];
    if (metricsUrl === undefined) throw new Error(`no metrics URL on stderr: ${server.stderr()}`);
    const scrape = new URL(metricsUrl);
    check("the scrape endpoint is its own listener on loopback", scrape.hostname === "127.0.0.1" && scrape.port !== new URL(server.url).port, `${metricsUrl}, MCP at ${server.url}`);

    const client = new Client({ name: "prometheus-check", version: "1.0.0" });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${server.url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }));
    for (let i = 0; i < CALLS; i++) await client.callTool({ name: "shout", arguments: { text: `call ${i}` } });
    // R4 is denied under the service governance: a refusal the counter names.
    await client.callTool({ name: "pay", arguments: { amount: 5 } }).catch(() => undefined);
    await client.close();

    for (const path of ["/metrics", "/mcp/metrics"]) {
      for (const auth of [{}, { Authorization: `Bearer ${TOKEN}` }] as Record<string, string>[]) {
        const r = await fetch(`${server.url}${path}`, { headers: auth });
        const text = await r.text();
        check(`the MCP listener does not serve ${path} (${"Authorization" in auth ? "with" : "without"} the caller's token)`, !text.includes("mcp_server_operation_duration"), `HTTP ${r.status}`);
      }
    }

    const apiPort = await freePort();
    const api = `http://127.0.0.1:${apiPort}`;
    const yml = join(tmp.dir, "prometheus.yml");
    writeFileSync(yml, `global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: motebit-local\n    metrics_path: ${scrape.pathname}\n    static_configs:\n      - targets: ["${scrape.host}"]\n`);
    prometheus = spawn(PROMETHEUS, [`--config.file=${yml}`, `--storage.tsdb.path=${join(tmp.dir, "tsdb")}`, `--web.listen-address=127.0.0.1:${apiPort}`, "--log.level=warn"], { stdio: ["ignore", "ignore", "pipe"] });
    let promLog = "";
    prometheus.stderr?.on("data", (c) => (promLog += c));
    await until("Prometheus ready", 30_000, async () => ((await fetch(`${api}/-/ready`)).ok ? true : undefined)).catch((e) => {
      throw new Error(`${(e as Error).message}; its log: ${promLog}`);
    });
    const up = await until("the target up", 30_000, async () => ((await query(api, 'up{job="motebit-local"}'))[0]?.value[1] === "1" ? true : undefined)).catch(() => false);
    check("Prometheus scrapes motebit-local's metrics port", up === true, `target ${scrape.host}`);

    const calls = await until("tools/call counts", 30_000, async () => {
      const r = await query(api, '{__name__=~"mcp_server_operation_duration.*_count", mcp_method_name="tools/call"}');
      return r.length > 0 ? r : undefined;
    }).catch(() => [] as Sample[]);
    const total = calls.reduce((n, s) => n + Number(s.value[1]), 0);
    const shout = calls.filter((s) => s.metric.gen_ai_tool_name === "shout").reduce((n, s) => n + Number(s.value[1]), 0);
    check("the query API shows mcp.server.operation.duration's count for tools/call", shout === CALLS, `shout: ${shout}, all tools/call: ${total}; ${calls.map((s) => `${s.metric.__name__}{tool=${s.metric.gen_ai_tool_name ?? "-"}}=${s.value[1]}`).join(", ")}`);

    const refusals = await query(api, '{__name__=~"motebit_.*refus.*"}');
    const denied = refusals.filter((s) => s.metric.motebit_refusal_kind === "deny").reduce((n, s) => n + Number(s.value[1]), 0);
    check("the query API shows the refusal counter, by kind", denied === 1, refusals.map((s) => `${s.metric.__name__}{kind=${s.metric.motebit_refusal_kind ?? "-"}}=${s.value[1]}`).join(", ") || "none");
  } finally {
    if (prometheus) await stopChild(prometheus);
    await server?.stop();
    tmp.cleanup();
  }
}

const deadline = setTimeout(() => {
  process.stdout.write(`FAIL prometheus: did not finish within ${DEADLINE_MS} ms\n`);
  process.exit(1);
}, DEADLINE_MS);
main().then(
  () => {
    clearTimeout(deadline);
    process.exit(failures === 0 ? 0 : 1);
  },
  (e) => {
    process.stdout.write(`FAIL prometheus: ${(e as Error).message}\n`);
    process.exit(1);
  },
);

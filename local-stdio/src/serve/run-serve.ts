// Runs `serve` once its flags are parsed: config, identity, tools and model, then stdio or HTTP until stopped.
import { createServer } from "node:net";
import { CliError } from "../cli-error.js";
import type { ServeOptions } from "../commands/serve-options.js";
import { defaultConfig, localSettings, readConfigFile } from "../config-file.js";
import { localAi } from "../local-ai.js";
import { startLocalMotebit } from "../local-motebit.js";
import { isLoopbackBind } from "motebit-edge/core";
import { resolveDataDir } from "../locations.js";
import { startOwnerMcpServers } from "../mcp-servers/for-serve.js";
import { startNodeTelemetry } from "../telemetry/start-telemetry.js";
import { serveHttp } from "./http-host.js";
import { startRelayHost } from "./relay-host.js";
import { serveStdio } from "./stdio-host.js";
import { claimStdout } from "./stdout-guard.js";

const log = (line: string) => void process.stderr.write(line + "\n");

function cannotListen(host: string, port: number, e: unknown): CliError {
  const code = (e as NodeJS.ErrnoException).code;
  const why = code === "EADDRINUSE" ? "EADDRINUSE, the port is taken: pick another with --serve-port N (0: any free port)" : (code ?? (e as Error).message);
  return new CliError(`cannot listen on ${host}:${port}: ${why}`);
}

/** Fails as listening would, before anything is written (data dir, generated key) or started (MCP servers). */
async function checkPortFree(host: string, port: number): Promise<void> {
  if (port === 0) return;
  await new Promise<void>((resolve, reject) => {
    const probe = createServer();
    probe.once("error", (e) => reject(cannotListen(host, port, e)));
    probe.listen(port, host, () => probe.close(() => resolve()));
  });
}

export async function runServe(opts: ServeOptions): Promise<number> {
  const jsonRpcOut = opts.transport === "stdio" ? claimStdout() : null;
  const config = opts.configPath === null ? defaultConfig() : readConfigFile(opts.configPath, log, process.env);
  const env = opts.embedder === undefined ? process.env : { ...process.env, MOTEBIT_EMBEDDER: opts.embedder };
  const settings = localSettings(config, env, opts.direct);
  const dataDir = resolveDataDir({ flag: opts.dataDirFlag, configDataDir: config.dataDir, identityPath: opts.identityPath });
  if (jsonRpcOut === null) await checkPortFree(opts.host, opts.port);
  const ai = await localAi(settings.ai, log);
  const { llm } = ai;
  const telemetry = await startNodeTelemetry({ env: process.env, metricsPortFlag: opts.metricsPort, log });
  // MOTEBIT_TASK_TIMEOUT_MS (environment, or the config file under that name or taskTimeoutMs); unset: the mode's default.
  const local = await startLocalMotebit({ identityPath: opts.identityPath, toolsPath: opts.toolsPath, dataDir, config, server: settings.server, llm, embedder: ai.embedder, taskTimeoutMs: ai.settings.taskTimeoutMs, telemetry: telemetry?.port, log });
  const { motebit } = local;
  const mcpServers = await startOwnerMcpServers(config.mcpServers, { overStdio: jsonRpcOut !== null, registry: motebit.registry, log });
  const mode =
    llm === null
      ? `mode: direct${opts.direct ? " (--direct)" : " (set ANTHROPIC_API_KEY or MOTEBIT_PROVIDER=ollama for AI mode)"}; model: none`
      : `mode: ai; provider: ${llm.provider}; model: ${llm.modelName}`;
  const tools = motebit.registry.list(opts.transport === "http" ? "peer" : "owner").length;
  const detail = `${mode}; tools: ${tools}; task budget: ${motebit.taskTimeoutMs}ms; embedder: ${motebit.memory.embedder.id}; data: ${dataDir}`;

  let stop: () => Promise<string>;
  const relayOpts = { motebit, settings: settings.relay, selfTest: opts.selfTest, bind: opts.host, log };
  if (jsonRpcOut !== null) {
    log(`motebit ${motebit.motebitId} serving over stdio (owner); ${detail}`);
    const done = serveStdio(motebit, local.sql, jsonRpcOut, log);
    startRelayHost({ ...relayOpts, transport: "stdio", port: 0 });
    stop = () => done;
  } else {
    let http;
    try {
      http = await serveHttp({ motebit, sql: local.sql, clock: motebit.clock, config: settings.server, host: opts.host, port: opts.port, publicUrl: settings.relay.publicUrl });
    } catch (e) {
      // Taken between the check and now: the same words.
      local.sql.close();
      await mcpServers.close();
      await telemetry?.shutdown();
      throw cannotListen(opts.host, opts.port, e);
    }
    const names = [...settings.server.staticTokens.keys()];
    const auth = names.length > 0 ? `static tokens ${names.join(", ")} or signed tokens` : "signed tokens only (no authToken configured)";
    log(`motebit ${motebit.motebitId} serving over http at ${http.url}/mcp (every caller is a peer; auth: ${auth}); ${detail}`);
    if (!isLoopbackBind(opts.host)) {
      log(`motebit: ${opts.host} is reachable from other machines. Auth still applies, but over plain http tokens travel in clear text: put TLS in front.`);
    }
    const relayHost = startRelayHost({ ...relayOpts, transport: "http", port: Number(new URL(http.url).port) });
    stop = () =>
      new Promise<string>((resolveStop) => {
        // Deregistration runs beside the close, within its own budget: the whole stop stays under 2 s.
        const end = (why: string) => void Promise.all([http.close(), relayHost?.stop()]).then(() => resolveStop(why));
        process.once("SIGINT", () => end("SIGINT"));
        process.once("SIGTERM", () => end("SIGTERM"));
      });
  }

  const why = await stop();
  await mcpServers.close();
  local.sql.close();
  await telemetry?.shutdown();
  log(`motebit ${motebit.motebitId} stopped (${why})`);
  // Something a tools module left running (a timer, a socket) must not keep a stopped server alive.
  setTimeout(() => process.exit(0), 1_000).unref();
  return 0;
}


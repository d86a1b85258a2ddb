// motebit-local serve: the owner's MCP server over stdio, or the edge's HTTP surface on this machine.
import type { Command } from "./command.js";
import type { ServeOptions } from "./serve-options.js";
import { EXIT_STATUS, flagInteger, flagString, parseFlags, UsageError } from "../flags.js";

export const DEFAULT_PORT = 3100;
export const DEFAULT_HOST = "127.0.0.1";

const HELP = `Usage: motebit-local serve [options]

Serve this motebit over MCP.
  stdio (default): for the MCP host you launch on your own machine. The caller is the owner:
    your memories, your context. stdout carries JSON-RPC only; diagnostics go to stderr.
    Never bridge a stdio server to a network (mcp-remote, supergateway, …): every remote
    caller of the bridge would become the owner.
  http: the same HTTP surface as the edge. Every caller is a peer, never the owner; without
    authToken in the config file or a motebit signed token, every request but /health is 401.

Options:
  --serve-transport T  stdio (default) or http
  --serve-port N       HTTP port (default ${DEFAULT_PORT})
  --serve-host H       HTTP address to bind (default ${DEFAULT_HOST}: this machine only)
  --identity FILE      a signed motebit.md; its key must be FILE's folder/motebit.key (where
                       init puts it) or "privateKeyPath" in the config file
  --tools PATH         an ES module (.js, .mjs, .ts) whose default export is the tool array
  --direct             no model (wins over MOTEBIT_MODE): each task runs one tool with the
                       prompt as its argument
  --self-test          http: after relay registration, submit a task to itself through the
                       relay and print one line: self-test <outcome>: <why> (next: <step>)
  --config FILE        JSON: {"authToken", "privateKeyPath", "dataDir", "knownCallers",
                       "relayTrust", "relayId", "relayForwardToken", "allowedOrigins", "rateLimit",
                       "taskTimeoutMs", "durability", "syncUrl", "publicUrl", "apiToken",
                       "selfTestTimeoutMs", "mcpServers"}, and the AI settings below under the
                       same upper-case names (every setting: docs/configuration.md); over stdio,
                       the owner's mcpServers are connected and their tools served as
                       NAME__TOOL (see "mcp --help")
  --data-dir DIR       where state lives (default: the identity file's folder/.motebit,
                       else ~/.motebit); created if missing
  --embedder NAME      local (the word table alone) or ollama; wins over MOTEBIT_EMBEDDER.
                       Default: a sentence encoder with the word table, offline. A change
                       re-embeds every stored memory at start-up
  --metrics-port N     a Prometheus scrape endpoint at http://127.0.0.1:N/metrics (0: any free
                       port, printed on stderr); its own listener on loopback, never the MCP one
                       (MOTEBIT_METRICS_PORT; the flag wins)

Auth tokens are read from the config file ("authToken", named tokens "authTokens") or the environment
(MOTEBIT_AUTH_TOKEN, MOTEBIT_AUTH_TOKENS, which win), never from a flag. Each token is at least 16 characters.
AI mode (environment, or the same keys in the config file; the environment wins):
  MOTEBIT_MODE=direct|ai         default: ai when the provider's credential is present
  MOTEBIT_PROVIDER=anthropic|ollama   (default anthropic; workers-ai exists only at the edge)
  MOTEBIT_MODEL                  verbatim; default claude-sonnet-4-5 / llama3.1
  ANTHROPIC_API_KEY, ANTHROPIC_BASE_URL (default https://api.anthropic.com/v1)
  OLLAMA_BASE_URL                default http://127.0.0.1:11434/api
  MOTEBIT_TASK_TIMEOUT_MS        one budget per task/query (default 120000 in AI mode, 60000 direct)
  MOTEBIT_EMBEDDER=local|ollama  recall embedder (default: a sentence encoder with the word table, offline;
                                 local: the word table alone, word meaning + exact names)
Relay (http only; stdio never registers): MOTEBIT_SYNC_URL or "syncUrl" names the relay;
the motebit registers, heartbeats every 5 minutes and deregisters on SIGTERM/SIGINT.
Without "publicUrl" (MOTEBIT_PUBLIC_URL) a loopback bind registers http://127.0.0.1:<port>.
MOTEBIT_RELAY_API_TOKEN / "apiToken" authenticates to the relay; else a token signed with
this motebit's key. MOTEBIT_RELAY_FORWARD_TOKEN / "relayForwardToken" is the bearer the relay
presents when it forwards a task (served as the relay, never the owner). MOTEBIT_RELAY_TRUST /
MOTEBIT_RELAY_ID / MOTEBIT_RELAY_FORWARD_TOKEN override the file's values.
Without a model, tasks run in direct mode and motebit_query says no provider is configured.
OpenTelemetry (docs/observability.md; off unless an endpoint or a metrics port is set):
  needs the @opentelemetry/* packages installed beside motebit-local (serve names the command if not)
  OTEL_EXPORTER_OTLP_ENDPOINT    base URL; traces go to <base>/v1/traces, metrics to <base>/v1/metrics
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, OTEL_EXPORTER_OTLP_METRICS_ENDPOINT   full URLs, win over the base
  OTEL_EXPORTER_OTLP_PROTOCOL    http/protobuf (default) or http/json (also _TRACES_/_METRICS_PROTOCOL)
  OTEL_EXPORTER_OTLP_HEADERS     key=value,key2=value2 sent with every export (also _TRACES_/_METRICS_HEADERS)
  OTEL_SERVICE_NAME              default motebit-local
  OTEL_TRACES_SAMPLER, OTEL_TRACES_SAMPLER_ARG   default parentbased_always_on
  OTEL_METRIC_EXPORT_INTERVAL    ms between OTLP metric exports (default 60000)
  OTEL_TRACES_EXPORTER, OTEL_METRICS_EXPORTER    otlp (default) or none; OTEL_SDK_DISABLED=true: all off
  OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true   export tool arguments, prompts and memory text

${EXIT_STATUS}`;

export const SPEC = {
  "serve-transport": "string",
  "serve-port": "string",
  "serve-host": "string",
  identity: "string",
  tools: "string",
  direct: "boolean",
  "self-test": "boolean",
  config: "string",
  "data-dir": "string",
  embedder: "string",
  "metrics-port": "string",
} as const;

/** Flags → options; every problem is a UsageError (exit 2, like every command's usage errors). */
export function parseServeArgs(argv: string[]): ServeOptions {
  if (argv.some((a) => a === "--auth-token" || a.startsWith("--auth-token="))) {
    throw new UsageError('there is no --auth-token flag: auth tokens come from the config file only, e.g. --config motebit.json with {"authToken": "…"}');
  }
  const flags = parseFlags(argv, SPEC, "serve");
  const port = flagInteger(flags, "serve-port", 0, 65535);
  if (flags.positionals.length > 0) throw new UsageError(`unexpected argument "${flags.positionals[0]}"`);
  const transport = flagString(flags, "serve-transport") ?? "stdio";
  if (transport !== "stdio" && transport !== "http") throw new UsageError(`--serve-transport must be "stdio" or "http", got "${transport}"`);
  const embedder = flagString(flags, "embedder");
  const metricsPort = flagInteger(flags, "metrics-port", 0, 65535) ?? null;
  if (embedder !== undefined && embedder !== "local" && embedder !== "ollama") throw new UsageError(`--embedder must be "local" or "ollama", got "${embedder}"`);
  return {
    transport,
    port: port ?? DEFAULT_PORT,
    host: flagString(flags, "serve-host") ?? DEFAULT_HOST,
    identityPath: flagString(flags, "identity") ?? null,
    toolsPath: flagString(flags, "tools") ?? null,
    direct: flags.values.has("direct"),
    selfTest: flags.values.has("self-test"),
    configPath: flagString(flags, "config") ?? null,
    dataDirFlag: flagString(flags, "data-dir"),
    embedder,
    metricsPort,
  };
}

async function run(argv: string[]): Promise<number> {
  const opts = parseServeArgs(argv);
  // The server's modules (MCP SDK, Hono, SQLite, the core) load only when serving, not for every CLI command.
  const { runServe } = await import("../serve/run-serve.js");
  return runServe(opts);
}

export const command: Command = { summary: "serve this motebit over MCP (stdio for the owner, or http for peers)", help: HELP, run };

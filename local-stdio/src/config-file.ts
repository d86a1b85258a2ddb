// The --config JSON file: the only place secrets such as authToken come from (never a flag, which would
// sit in shell history and `ps` output). Relative paths in it are resolved against its own folder.
import { readFileSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { bytesToHex, hexToBytes } from "../../src/protocol/index.js";
import {
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_SESSIONS_PER_CALLER,
  DEFAULT_RATE_LIMIT_PER_MINUTE,
  DEFAULT_SESSION_TTL_MS,
  type ServerConfig,
} from "../../src/server/config.js";
import { parseKnownCallers } from "../../src/server/known-callers.js";
import { RELAY_CONFIG_KEYS } from "../../src/relay/settings.js";
import { normaliseOrigin } from "../../src/server/origin.js";
import { AI_SETTING_NAMES } from "../../src/server/ai-config.js";
import { CliError } from "./cli-error.js";
import { mcpServersHoldSecrets, parseMcpServers, type McpServerConfig } from "./mcp-servers/config.js";
import type { Durability } from "./sqlite-port.js";

export interface LocalConfig {
  /** Absolute path of the config file, or null when none was given. */
  path: string | null;
  privateKeyPath: string | null;
  dataDir: string | null;
  taskTimeoutMs: number | null;
  /** The owner's MCP servers (stdio only): their tools join the registry as localOnly tools. */
  mcpServers: McpServerConfig[];
  /** The AI settings (MOTEBIT_MODE, MOTEBIT_PROVIDER, …) under the edge's names; the environment overrides each. */
  aiEnv: Record<string, string>;
  /** "full" fsyncs every commit (survives a power loss); "normal" (default) survives a process crash only. */
  durability: Durability;
  /** The HTTP mode's settings, exactly the shape the edge reads from its environment. */
  server: ServerConfig;
  /** The file's fields as parsed, for settings read elsewhere (the relay's: src/relay/settings.ts). */
  fields: Record<string, unknown> | null;
}

const KEYS = ["authToken", "privateKeyPath", "dataDir", "knownCallers", "relayTrust", "relayId", "relayForwardToken", "allowedOrigins", "rateLimit", "taskTimeoutMs", "durability", "mcpServers", ...RELAY_CONFIG_KEYS, ...AI_SETTING_NAMES];
const MAX_TASK_TIMEOUT_MS = 60 * 60_000;

export function defaultConfig(): LocalConfig {
  return {
    path: null,
    privateKeyPath: null,
    dataDir: null,
    taskTimeoutMs: null,
    mcpServers: [],
    aiEnv: {},
    durability: "normal",
    fields: null,
    server: {
      authToken: null,
      knownCallers: new Map(),
      relayTrust: null,
      relayId: null,
      relayForwardToken: null,
      allowedOrigins: [],
      rateLimitPerMinute: DEFAULT_RATE_LIMIT_PER_MINUTE,
      maxBodyBytes: DEFAULT_MAX_BODY_BYTES,
      sessionTtlMs: DEFAULT_SESSION_TTL_MS,
      maxSessionsPerCaller: DEFAULT_MAX_SESSIONS_PER_CALLER,
    },
  };
}

/** Reads and checks the file; every problem is a CliError naming the file and the field. `warn` gets advice that does not stop start-up. */
export function readConfigFile(path: string, warn: (line: string) => void = () => {}): LocalConfig {
  const abs = resolve(path);
  let text: string;
  try {
    text = readFileSync(abs, "utf8");
  } catch (e) {
    throw new CliError(`cannot read config file ${abs}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  const fail = (msg: string): never => {
    throw new CliError(`config file ${abs}: ${msg}`);
  };
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    return fail(`not valid JSON (${(e as Error).message})`);
  }
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) return fail("must be a JSON object");
  const o = raw as Record<string, unknown>;
  const unknown = Object.keys(o).filter((k) => !KEYS.includes(k));
  if (unknown.length) fail(`unknown field ${JSON.stringify(unknown[0])} (known: ${KEYS.join(", ")})`);

  const str = (key: string): string | null => {
    const v = o[key];
    if (v === undefined || v === null) return null;
    if (typeof v !== "string" || v.trim() === "") return fail(`${key} must be a non-empty string`);
    return v;
  };
  const base = dirname(abs);
  const pathField = (key: string): string | null => {
    const v = str(key);
    return v === null ? null : resolve(base, v);
  };
  const cfg = defaultConfig();
  cfg.path = abs;
  cfg.fields = o;
  cfg.privateKeyPath = pathField("privateKeyPath");
  cfg.dataDir = pathField("dataDir");
  cfg.server.authToken = str("authToken");

  try {
    cfg.server.knownCallers = parseKnownCallers(o.knownCallers, "knownCallers");
  } catch (e) {
    fail((e as Error).message);
  }
  const relay = str("relayTrust");
  if (relay !== null) {
    try {
      cfg.server.relayTrust = bytesToHex(hexToBytes(relay.trim(), 32));
    } catch (e) {
      fail(`relayTrust must be a 32-byte Ed25519 public key in hex: ${(e as Error).message}`);
    }
  }
  cfg.server.relayId = str("relayId")?.trim() ?? null;
  cfg.server.relayForwardToken = str("relayForwardToken")?.trim() ?? null;
  if (o.allowedOrigins !== undefined && o.allowedOrigins !== null) {
    if (!Array.isArray(o.allowedOrigins)) fail('allowedOrigins must be an array of origins like "https://app.example.com"');
    cfg.server.allowedOrigins = (o.allowedOrigins as unknown[]).map((v) => {
      const origin = typeof v === "string" ? normaliseOrigin(v.trim()) : null;
      return origin ?? fail(`allowedOrigins: ${JSON.stringify(v)} is not an origin like "https://app.example.com"`);
    });
  }
  if (o.rateLimit !== undefined && o.rateLimit !== null) {
    if (!Number.isSafeInteger(o.rateLimit) || (o.rateLimit as number) < 0) {
      fail(`rateLimit must be a whole number of requests per minute per caller (0 disables), got ${JSON.stringify(o.rateLimit)}`);
    }
    cfg.server.rateLimitPerMinute = o.rateLimit as number;
  }
  if (o.taskTimeoutMs !== undefined && o.taskTimeoutMs !== null) {
    const t = o.taskTimeoutMs;
    if (!Number.isSafeInteger(t) || (t as number) < 1 || (t as number) > MAX_TASK_TIMEOUT_MS) {
      fail(`taskTimeoutMs must be a whole number of milliseconds from 1 to ${MAX_TASK_TIMEOUT_MS}, got ${JSON.stringify(t)}`);
    }
    cfg.taskTimeoutMs = t as number;
  }
  for (const name of AI_SETTING_NAMES) {
    const v = o[name];
    if (v === undefined || v === null) continue;
    if (typeof v !== "string" && typeof v !== "number") fail(`${name} must be a string`);
    cfg.aiEnv[name] = String(v);
  }
  if (o.durability !== undefined && o.durability !== null) {
    if (o.durability !== "normal" && o.durability !== "full") fail(`durability must be "normal" or "full", got ${JSON.stringify(o.durability)}`);
    cfg.durability = o.durability as Durability;
  }
  cfg.mcpServers = parseMcpServers(o.mcpServers, base, fail);
  const secret =
    cfg.server.authToken !== null
      ? "authToken"
      : cfg.server.relayForwardToken !== null
        ? "relayForwardToken"
        : cfg.aiEnv.ANTHROPIC_API_KEY !== undefined
          ? "ANTHROPIC_API_KEY"
          : typeof o.apiToken === "string"
            ? "apiToken"
            : mcpServersHoldSecrets(cfg.mcpServers)
              ? "mcpServers env or headers"
              : null;
  if (secret !== null && (statSync(abs).mode & 0o077) !== 0 && process.platform !== "win32") {
    warn(`motebit: warning: ${abs} holds ${secret} but other users can read it (chmod 600 ${abs})`);
  }
  return cfg;
}

// "mcpServers" in the config file: the owner's MCP servers, in the shape MCP hosts already use
// ({command, args, env} for stdio, {url, headers} for Streamable HTTP), plus the motebit's own keys:
// the risk the gate gives their tools, per-tool overrides, and a start-up timeout.
import { resolve } from "node:path";
import { parseRisk, RISK_NAMES, type RiskLevel } from "motebit-edge/core";
import { unknownField } from "../unknown-field.js";

export const DEFAULT_SERVER_RISK: RiskLevel = 3; // R3_EXECUTE: a connected server acts for the owner
export const DEFAULT_STARTUP_TIMEOUT_MS = 30_000;
const MAX_STARTUP_TIMEOUT_MS = 10 * 60_000;

/** Server names become the prefix of their tools' names (`<server>__<tool>`), so they use the tool-name alphabet. */
const SERVER_NAME = /^[A-Za-z0-9][A-Za-z0-9.-]*(_[A-Za-z0-9.-]+)*$/;
const MAX_SERVER_NAME = 64;

interface Common {
  name: string;
  /** The risk of every tool of this server, unless toolRisk names it. */
  risk: RiskLevel;
  /** Per-tool overrides, by the server's own tool name. */
  toolRisk: Map<string, RiskLevel>;
  startupTimeoutMs: number;
}
export type McpServerConfig =
  | (Common & { transport: "stdio"; command: string; args: string[]; env: Record<string, string>; passEnv: string[]; cwd: string })
  | (Common & { transport: "http"; url: URL; headers: Record<string, string> });

const STDIO_KEYS = ["type", "command", "args", "env", "passEnv", "cwd"];
const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;
const HTTP_KEYS = ["type", "url", "headers"];
const MOTEBIT_KEYS = ["risk", "toolRisk", "startupTimeoutMs"];

/** Why a server name cannot be used, or null when it can. */
export function serverNameProblem(name: string): string | null {
  if (name.length > MAX_SERVER_NAME || !SERVER_NAME.test(name)) {
    return `server name ${JSON.stringify(name)} must be 1-${MAX_SERVER_NAME} characters of A-Z a-z 0-9 . - and single _ (it prefixes its tools: <server>__<tool>)`;
  }
  if (`${name}__`.toLowerCase().startsWith("motebit_")) return `server name ${JSON.stringify(name)} is reserved (tools named motebit_… are the motebit's own)`;
  return null;
}

function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/**
 * Checks `raw` (the value of "mcpServers"); `fail` throws with the config file's name in front.
 * Relative `cwd` is resolved against `base` (the config file's folder), which is also the default cwd.
 */
export function parseMcpServers(raw: unknown, base: string, fail: (msg: string) => never): McpServerConfig[] {
  if (raw === undefined || raw === null) return [];
  if (!isPlainObject(raw)) return fail('mcpServers must be an object: {"name": {"command": …} or {"url": …}}');
  return Object.entries(raw).map(([name, entry]) => parseServer(name, entry, base, (msg) => fail(`mcpServers.${name}: ${msg}`)));
}

function parseServer(name: string, e: unknown, base: string, fail: (msg: string) => never): McpServerConfig {
  const bad = serverNameProblem(name);
  if (bad !== null) fail(bad);
  if (!isPlainObject(e)) return fail('must be an object: {"command", "args", "env"} for stdio or {"url", "headers"} for Streamable HTTP');
  const type = e.type;
  if (type === "sse") fail('"type": "sse" (the old HTTP+SSE transport) is not supported: use the server\'s Streamable HTTP endpoint');
  if (type !== undefined && type !== "stdio" && type !== "http" && type !== "streamable-http") {
    fail(`"type" must be "stdio" or "http", got ${JSON.stringify(type)}`);
  }
  const isHttp = e.url !== undefined || type === "http" || type === "streamable-http";
  if (isHttp && e.command !== undefined) fail('has both "command" (stdio) and "url" (HTTP): give one');
  const known = [...(isHttp ? HTTP_KEYS : STDIO_KEYS), ...MOTEBIT_KEYS];
  const unknown = Object.keys(e).filter((k) => !known.includes(k));
  if (unknown.length) fail(unknownField(unknown[0], known));

  const common: Common = {
    name,
    risk: e.risk === undefined ? DEFAULT_SERVER_RISK : riskField(e.risk, "risk", fail),
    toolRisk: new Map(),
    startupTimeoutMs: DEFAULT_STARTUP_TIMEOUT_MS,
  };
  if (e.toolRisk !== undefined) {
    if (!isPlainObject(e.toolRisk)) fail('toolRisk must be an object: {"<tool>": "R0_READ" … "R4_MONEY"}');
    for (const [tool, r] of Object.entries(e.toolRisk as Record<string, unknown>)) common.toolRisk.set(tool, riskField(r, `toolRisk.${tool}`, fail));
  }
  if (e.startupTimeoutMs !== undefined) {
    const t = e.startupTimeoutMs;
    if (!Number.isSafeInteger(t) || (t as number) < 1 || (t as number) > MAX_STARTUP_TIMEOUT_MS) {
      fail(`startupTimeoutMs must be a whole number of milliseconds from 1 to ${MAX_STARTUP_TIMEOUT_MS}, got ${JSON.stringify(t)}`);
    }
    common.startupTimeoutMs = t as number;
  }

  if (isHttp) {
    if (typeof e.url !== "string") return fail('"url" must be the server\'s Streamable HTTP endpoint, e.g. "https://example.com/mcp"');
    let url: URL;
    try {
      url = new URL(e.url);
    } catch {
      return fail(`"url" ${JSON.stringify(e.url)} is not a URL`);
    }
    if (url.protocol !== "http:" && url.protocol !== "https:") fail(`"url" must be http or https, got ${url.protocol}`);
    return { ...common, transport: "http", url, headers: stringMap(e.headers, "headers", fail) };
  }
  if (typeof e.command !== "string" || e.command.trim() === "") return fail('needs "command" (stdio) or "url" (Streamable HTTP)');
  if (e.args !== undefined && (!Array.isArray(e.args) || !e.args.every((a) => typeof a === "string"))) fail('"args" must be a list of strings');
  if (e.cwd !== undefined && (typeof e.cwd !== "string" || e.cwd === "")) fail('"cwd" must be a non-empty string');
  if (e.passEnv !== undefined && (!Array.isArray(e.passEnv) || !e.passEnv.every((n) => typeof n === "string" && ENV_NAME.test(n)))) {
    fail('"passEnv" must be a list of environment variable names (the motebit\'s values of those go to the server)');
  }
  return {
    ...common,
    transport: "stdio",
    command: e.command,
    args: (e.args as string[] | undefined) ?? [],
    env: stringMap(e.env, "env", fail),
    passEnv: (e.passEnv as string[] | undefined) ?? [],
    cwd: resolve(base, (e.cwd as string | undefined) ?? "."),
  };
}

function riskField(v: unknown, key: string, fail: (msg: string) => never): RiskLevel {
  const r = parseRisk(v);
  return r ?? fail(`${key} must be one of ${RISK_NAMES.join(", ")} (or 0-4), got ${JSON.stringify(v)}`);
}

function stringMap(v: unknown, key: string, fail: (msg: string) => never): Record<string, string> {
  if (v === undefined) return {};
  if (!isPlainObject(v) || !Object.values(v).every((x) => typeof x === "string")) fail(`"${key}" must be an object of strings`);
  return { ...(v as Record<string, string>) };
}

/** True when the entries carry what is usually a secret (env values, HTTP headers). */
export function mcpServersHoldSecrets(servers: McpServerConfig[]): boolean {
  return servers.some((s) => Object.keys(s.transport === "stdio" ? s.env : s.headers).length > 0);
}

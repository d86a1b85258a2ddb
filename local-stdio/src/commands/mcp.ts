// motebit-local mcp add|list|remove: the owner's MCP servers in the config file that `serve --config` reads.
import { statSync } from "node:fs";
import type { Command } from "../cli.js";
import { CliError } from "../cli-error.js";
import { flagList, flagString, parseFlags, UsageError, type ParsedFlags } from "../flags.js";
import { readConfigFile } from "../config-file.js";
import { serverNameProblem, type McpServerConfig } from "../mcp-servers/config.js";
import { loadConfigForEdit, mcpServersOf, writeMcpServers } from "../mcp-servers/edit-config.js";
import { riskName, RISK_NAMES } from "../../../src/policy/risk.js";

const HELP = `Usage: motebit-local mcp add NAME --config FILE [options] -- COMMAND [ARGS…]
       motebit-local mcp add NAME --config FILE --url URL [--header "K: V"]… [options]
       motebit-local mcp list --config FILE [--offline] [--json]
       motebit-local mcp remove NAME --config FILE

The owner's MCP servers: "mcpServers" in the config file that serve --config reads (the
shape MCP hosts use). When "motebit-local serve" runs over stdio it connects to each; their
tools become the motebit's tools named NAME__TOOL, for the owner only (never listed or
callable over http, never offered to a peer), and every call passes the policy gate.
  add      a stdio server (everything after -- is the command and its arguments) or a
           Streamable HTTP server (--url); creates the file (mode 0600) if missing
  list     each server with its status and tool count (it starts each server briefly)
  remove   takes the server out of the file

Options:
  --config FILE        the config file (required)
  --url URL            the server's Streamable HTTP endpoint (add)
  --header "K: V"      an HTTP header sent to it, e.g. an Authorization header; repeatable (add --url)
  --env K=V            an environment variable for the server's process; repeatable (add, stdio).
                       The process gets only PATH, HOME, USER, LOGNAME, SHELL, TERM and these.
  --risk R             the risk of every tool of this server: ${RISK_NAMES.join(", ")}
                       (default R3_EXECUTE); the identity's governance decides what runs
  --tool-risk TOOL=R   the risk of one tool (the server's own tool name); repeatable
  --force              add: replace a server of the same name
  --offline            list: do not start the servers (no status, no tool count)
  --json               list: JSON on stdout (env and header values are never printed)

Every edit keeps the file's other keys, its mode and its owner, and replaces it in one step.`;

const SPEC = {
  config: "string",
  url: "string",
  header: "list",
  env: "list",
  risk: "string",
  "tool-risk": "list",
  force: "boolean",
  offline: "boolean",
  json: "boolean",
} as const;

const ONLY_FOR: Record<string, string> = { url: "add", header: "add", env: "add", risk: "add", "tool-risk": "add", force: "add", offline: "list", json: "list" };

async function run(argv: string[]): Promise<number> {
  // Everything after "--" is the server's command line, flags included.
  const dashDash = argv.indexOf("--");
  const own = dashDash < 0 ? argv : argv.slice(0, dashDash);
  const serverCommand = dashDash < 0 ? null : argv.slice(dashDash + 1);
  const flags = parseFlags(own, SPEC, "mcp");
  const [action, ...args] = flags.positionals;
  if (action === undefined) throw new UsageError("say what to do: add NAME, list or remove NAME");
  if (!["add", "list", "remove"].includes(action)) throw new UsageError(`unknown mcp action "${action}" (add, list, remove)`);
  for (const [flag, only] of Object.entries(ONLY_FOR)) {
    if (flags.values.has(flag) && only !== action) throw new UsageError(`--${flag} applies to "mcp ${only}" only`);
  }
  if (serverCommand !== null && action !== "add") throw new UsageError(`"--" and a command apply to "mcp add" only`);
  const config = flagString(flags, "config");
  if (config === undefined) throw new UsageError(`--config FILE is required: the file you pass to "serve --config"`);
  if (action === "list") {
    if (args.length > 0) throw new UsageError(`unexpected argument "${args[0]}"`);
    return list(config, flags);
  }
  if (args.length !== 1) throw new UsageError(`${action} takes exactly one server name${args.length > 1 ? `, got "${args.join(" ")}"` : ""}`);
  return action === "add" ? add(config, args[0], flags, serverCommand) : remove(config, args[0]);
}

function add(configPath: string, name: string, flags: ParsedFlags, command: string[] | null): number {
  const problem = serverNameProblem(name);
  if (problem !== null) throw new UsageError(problem);
  const url = flagString(flags, "url");
  if (url !== undefined && command !== null) throw new UsageError("give either --url URL or -- COMMAND ARGS…, not both");
  if (url === undefined && (command === null || command.length === 0)) {
    throw new UsageError("say how to reach the server: -- COMMAND ARGS… (stdio) or --url URL (Streamable HTTP)");
  }
  if (url !== undefined && flags.values.has("env")) throw new UsageError("--env applies to a stdio server (-- COMMAND …), not to --url");
  if (url === undefined && flags.values.has("header")) throw new UsageError("--header applies to --url servers only");

  const entry: Record<string, unknown> = url !== undefined ? { url } : { command: command![0] };
  if (url === undefined && command!.length > 1) entry.args = command!.slice(1);
  const env = pairs(flagList(flags, "env"), "=", "--env", "K=V");
  if (Object.keys(env).length) entry.env = env;
  const headers = pairs(flagList(flags, "header"), ":", "--header", '"Name: value"');
  for (const h of Object.keys(headers)) if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(h)) throw new UsageError(`--header: "${h}" is not a valid header name`);
  if (Object.keys(headers).length) entry.headers = headers;
  const risk = flagString(flags, "risk");
  if (risk !== undefined) entry.risk = risk;
  const toolRisk = pairs(flagList(flags, "tool-risk"), "=", "--tool-risk", "TOOL=R3_EXECUTE");
  if (Object.keys(toolRisk).length) entry.toolRisk = toolRisk;

  const file = loadConfigForEdit(configPath);
  const servers = mcpServersOf(file);
  if (Object.hasOwn(servers, name) && !flags.values.has("force")) {
    throw new CliError(`${file.path} already has an MCP server "${name}" (remove it first, or add --force to replace it)`);
  }
  servers[name] = entry;
  writeMcpServers(file, servers);
  if ((entry.env || entry.headers) && (statSync(file.path).mode & 0o077) !== 0 && process.platform !== "win32") {
    process.stderr.write(`motebit-local mcp: warning: ${file.path} now holds ${entry.env ? "env" : "header"} values but other users can read it (chmod 600 ${file.path})\n`);
  }
  process.stdout.write(`added MCP server "${name}" to ${file.path}; its tools appear as ${name}__TOOL in "motebit-local serve --config ${configPath}" (stdio)\n`);
  return 0;
}

function remove(configPath: string, name: string): number {
  const file = loadConfigForEdit(configPath);
  if (!file.exists) throw new CliError(`config file ${file.path} does not exist`);
  const servers = mcpServersOf(file);
  if (!Object.hasOwn(servers, name)) {
    const known = Object.keys(servers);
    throw new CliError(`${file.path} has no MCP server "${name}"${known.length ? ` (it has: ${known.join(", ")})` : ""}`);
  }
  delete servers[name];
  writeMcpServers(file, servers);
  process.stdout.write(`removed MCP server "${name}" from ${file.path}\n`);
  return 0;
}

/** "K=V" or "K: V" → {K: V}; the first separator splits, so values may contain it. */
function pairs(values: string[], sep: string, flag: string, example: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const v of values) {
    const i = v.indexOf(sep);
    const key = i < 0 ? "" : v.slice(0, i).trim();
    if (key === "") throw new UsageError(`${flag} needs ${example}, got "${v}"`);
    if (Object.hasOwn(out, key)) throw new UsageError(`${flag} gives "${key}" twice`);
    out[key] = sep === ":" ? v.slice(i + 1).trim() : v.slice(i + 1);
  }
  return out;
}

interface Listed {
  name: string;
  transport: "stdio" | "http";
  target: string;
  risk: string;
  toolRisk: Record<string, string>;
  /** Names only: values are secrets. */
  env?: string[];
  headers?: string[];
  status: "ok" | "failed" | "not checked";
  tools?: number;
  toolNames?: string[];
  error?: string;
}

async function list(configPath: string, flags: ParsedFlags): Promise<number> {
  const cfg = readConfigFile(configPath);
  const offline = flags.values.has("offline");
  // The connection code (the MCP SDK client) loads only when it is needed.
  const probe = offline ? null : (await import("../mcp-servers/probe.js")).probe;
  const rows: Listed[] = await Promise.all(
    cfg.mcpServers.map(async (s): Promise<Listed> => {
      const base: Listed = {
        name: s.name,
        transport: s.transport,
        target: describeTarget(s),
        risk: riskName(s.risk),
        toolRisk: Object.fromEntries([...s.toolRisk].map(([t, r]) => [t, riskName(r)])),
        ...(s.transport === "stdio" ? { env: Object.keys(s.env) } : { headers: Object.keys(s.headers) }),
        status: "not checked",
      };
      if (probe === null) return base;
      const r = await probe(s);
      return r.ok ? { ...base, status: "ok", tools: r.toolNames.length, toolNames: r.toolNames } : { ...base, status: "failed", error: r.error };
    }),
  );
  if (flags.values.has("json")) {
    process.stdout.write(JSON.stringify(rows, null, 2) + "\n");
    return 0;
  }
  if (rows.length === 0) {
    process.stdout.write(`no MCP servers in ${cfg.path} (add one: motebit-local mcp add NAME --config ${configPath} -- COMMAND ARGS…)\n`);
    return 0;
  }
  const cells = rows.map((r) => [
    r.name,
    r.transport,
    r.target,
    r.risk + (Object.keys(r.toolRisk).length ? ` (+${Object.keys(r.toolRisk).length} per tool)` : ""),
    r.status === "ok" ? `ok, ${r.tools} tools` : r.status === "failed" ? `failed: ${r.error}` : "not checked (--offline)",
  ]);
  const header = ["NAME", "TRANSPORT", "TARGET", "RISK", "STATUS"];
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  for (const line of [header, ...cells]) {
    process.stdout.write(line.map((c, i) => (i === line.length - 1 ? c : c.padEnd(widths[i]))).join("  ") + "\n");
  }
  return 0;
}

function describeTarget(s: McpServerConfig): string {
  if (s.transport === "http") return s.url.href;
  return [s.command, ...s.args].map((a) => (/^[\w@%+=:,./-]+$/.test(a) ? a : JSON.stringify(a))).join(" ");
}

export const command: Command = { summary: "add, list or remove the owner's MCP servers (their tools join over stdio)", help: HELP, run };

// What `motebit-local mcp add|list|remove` does once its arguments are read (commands/mcp.ts has the help).
import { statSync } from "node:fs";
import { CliError } from "../cli-error.js";
import { flagList, flagString, UsageError, type ParsedFlags } from "../flags.js";
import { readConfigFile } from "../config-file.js";
import { riskName } from "motebit-edge/core";
import { serverNameProblem, type McpServerConfig } from "./config.js";
import { loadConfigForEdit, mcpServersOf, writeMcpServers } from "./edit-config.js";

export function add(configPath: string, name: string, flags: ParsedFlags, command: string[] | null): number {
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

export function remove(configPath: string, name: string): number {
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

export async function list(configPath: string, flags: ParsedFlags): Promise<number> {
  const cfg = readConfigFile(configPath);
  const offline = flags.values.has("offline");
  // The connection code (the MCP SDK client) loads only when it is needed.
  const probe = offline ? null : (await import("./probe.js")).probe;
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

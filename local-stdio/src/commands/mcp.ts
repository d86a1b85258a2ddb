// motebit-local mcp add|list|remove: the owner's MCP servers in the config file that `serve --config` reads.
import type { Command } from "./command.js";
import { flagString, parseFlags, UsageError } from "../flags.js";
import { RISK_NAMES } from "motebit-edge/core";

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
  if (action === "list" && args.length > 0) throw new UsageError(`unexpected argument "${args[0]}"`);
  if (action !== "list" && args.length !== 1) throw new UsageError(`${action} takes exactly one server name${args.length > 1 ? `, got "${args.join(" ")}"` : ""}`);
  // The config code (and, for list, the MCP client) loads only for this command, not for every CLI start.
  const actions = await import("../mcp-servers/mcp-actions.js");
  if (action === "list") return actions.list(config, flags);
  return action === "add" ? actions.add(config, args[0], flags, serverCommand) : actions.remove(config, args[0]);
}

export const command: Command = { summary: "add, list or remove the owner's MCP servers (their tools join over stdio)", help: HELP, run };

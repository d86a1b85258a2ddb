// motebit-local fleet: the operator's side of a fleet Worker's /fleet/ API (README "A fleet on one Worker").
// The keys are made inside the Worker's objects; this command only sends settings and prints what comes back.
import { readFileSync, writeFileSync } from "node:fs";
import type { Command } from "./command.js";
import { CliError } from "../cli-error.js";
import { EXIT_STATUS, flagInteger, flagString, parseFlags, UsageError } from "../flags.js";
import { allowScope, checkAllowedScope } from "./allow-scope.js";
import { checkFetchedRequest, describeRequest } from "./fetched-request.js";

const HELP = `Usage: motebit-local fleet create <name> --url URL --token-file FILE [options]
       motebit-local fleet list --url URL --token-file FILE [--after NAME] [--limit N]
       motebit-local fleet get|delete <name> --url URL --token-file FILE
       motebit-local fleet approve <name> <code> --url URL --token-file FILE [--trust verified|first_contact]
       motebit-local fleet allow <name> <client_id> --url URL --token-file FILE [--trust verified|first_contact] [--scope S]

Manage the motebits of a fleet Worker (one deployment, one Durable Object per motebit). Each
prints the Worker's JSON answer on stdout. "create" answers the new motebit's motebit_id,
public_key, signed identity (motebit.md) and mcp_url; its private key never leaves the Worker.
"delete" retires one: its key is destroyed; receipts it signed still verify with its public key.
"approve" answers an MCP host's OAuth consent page for one of them: the motebit's object signs the
approval for that request code (its key never leaves the Worker) and prints it: paste it into the page.
"allow" lets a keyed agent (its client_id a Client ID Metadata Document URL publishing its key) get
tokens for one of them without a browser (client_credentials with private_key_jwt, docs/clients.md).

Options:
  --url URL             the fleet Worker (e.g. https://fleet.example.workers.dev)
  --token-file FILE     a file holding the operator token (the Worker's MOTEBIT_FLEET_TOKEN)
  --type T              create: service (default) or personal
  --display-name N      create: the service name in its identity
  --known-callers FILE  create: callers it trusts, JSON in the MOTEBIT_KNOWN_CALLERS shape
  --auth-token-file F   create: a static bearer token for it (kept hashed by the Worker)
  --tools A,B           create: serve only these of the Worker's tools (default: all)
  --identity-out FILE   create: also write the signed identity there
  --after NAME          list: the page after this name (the "next" of the previous page)
  --limit N             list: page size, 1 to 1000 (default 100)
  --trust T             approve, allow: first_contact (default) or verified
  --scope S             allow: the OAuth scopes the agent's tokens get, space-separated, of motebit:read
                        motebit:tools motebit:task motebit:remember (default: all four)

${EXIT_STATUS}`;

export const SPEC = {
  url: "string",
  "token-file": "string",
  type: "string",
  "display-name": "string",
  "known-callers": "string",
  "auth-token-file": "string",
  tools: "string",
  "identity-out": "string",
  after: "string",
  limit: "string",
  trust: "string",
  scope: "string",
} as const;

const ACTIONS = ["create", "list", "get", "delete", "approve", "allow"] as const;

function required(value: string | undefined, flag: string): string {
  if (value === undefined) throw new UsageError(`--${flag} is required`);
  return value;
}

function readSecret(path: string, flag: string): string {
  const text = readFileSync(path, "utf8").trim();
  if (text === "") throw new CliError(`--${flag} ${path} is empty`);
  return text;
}

async function run(argv: string[]): Promise<number> {
  const f = parseFlags(argv, SPEC, "fleet");
  const [action, name, ...rest] = f.positionals;
  if (!(ACTIONS as readonly string[]).includes(action ?? "")) throw new UsageError(`an action is required: ${ACTIONS.join(", ")}`);
  // approve's request code, or allow's client_id.
  const code = action === "approve" || action === "allow" ? rest.shift() : undefined;
  const extra = rest;
  if (action === "approve" && code === undefined) throw new UsageError("approve needs a motebit name and the request code");
  if (action === "allow" && code === undefined) throw new UsageError("allow needs a motebit name and the client_id");
  if (extra.length > 0) throw new UsageError(`unexpected argument "${extra[0]}"`);
  if (action === "list" ? name !== undefined : name === undefined) throw new UsageError(action === "list" ? `unexpected argument "${name}"` : "a motebit name is required");
  const scope = allowScope(action!, flagString(f, "scope"));
  const base = required(flagString(f, "url"), "url").replace(/\/+$/, "");
  const token = readSecret(required(flagString(f, "token-file"), "token-file"), "token-file");

  let method = "GET";
  let path = `/fleet/motebits/${encodeURIComponent(name ?? "")}`;
  let body: Record<string, unknown> | undefined;
  if (action === "create") {
    method = "POST";
    path = "/fleet/motebits";
    body = { name };
    if (flagString(f, "type") !== undefined) body.type = flagString(f, "type");
    if (flagString(f, "display-name") !== undefined) body.display_name = flagString(f, "display-name");
    const known = flagString(f, "known-callers");
    if (known !== undefined) {
      try {
        body.known_callers = JSON.parse(readFileSync(known, "utf8"));
      } catch (e) {
        throw new CliError(`--known-callers ${known}: ${(e as Error).message}`);
      }
    }
    const authTokenFile = flagString(f, "auth-token-file");
    if (authTokenFile !== undefined) body.auth_token = readSecret(authTokenFile, "auth-token-file");
    const tools = flagString(f, "tools");
    if (tools !== undefined) body.tools = tools.split(",").map((t) => t.trim()).filter((t) => t !== "");
  } else if (action === "list") {
    const q = new URLSearchParams();
    const after = flagString(f, "after");
    if (after !== undefined) q.set("after", after);
    const limit = flagInteger(f, "limit", 1, 1000);
    if (limit !== undefined) q.set("limit", String(limit));
    path = `/fleet/motebits${q.size > 0 ? `?${q}` : ""}`;
  } else if (action === "delete") method = "DELETE";
  else if (action === "approve") {
    method = "POST";
    path = `/fleet/motebits/${encodeURIComponent(name!)}/oauth/approve`;
    body = { code, trust: flagString(f, "trust") ?? "first_contact" };
  } else if (action === "allow") {
    method = "POST";
    path = `/fleet/motebits/${encodeURIComponent(name!)}/oauth/agents`;
    body = { client_id: code, trust: flagString(f, "trust") ?? "first_contact", ...(scope === undefined ? {} : { scope }) };
  }

  let res: Response;
  try {
    res = await fetch(base + path, {
      method,
      headers: { Authorization: `Bearer ${token}`, ...(body ? { "Content-Type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
  } catch (e) {
    throw new CliError(`cannot reach ${base}: ${(e as Error).message}`);
  }
  const text = await res.text();
  if (!res.ok) {
    let why = text;
    try {
      why = (JSON.parse(text) as { error?: string }).error ?? text;
    } catch {
      /* not JSON: the text as it came */
    }
    throw new CliError(`${method} ${path}: HTTP ${res.status}${res.status === 404 && action !== "create" ? ` (no motebit "${name}", or the Worker runs no fleet)` : ""}: ${why}`);
  }
  if (action === "approve") {
    // The Worker signed what it holds for this code: the owner sees it, escaped, and it must be this motebit's request.
    const answer = JSON.parse(text) as { approval?: unknown; request?: unknown };
    const d = checkFetchedRequest(answer.request, code!, `${base}/m/${encodeURIComponent(name!)}/mcp`);
    process.stderr.write(describeRequest(d, body!.trust as string));
    // The page asks for the approval itself, as `oauth approve` prints it: only that goes to stdout, and only as the
    // printable token it must be (nothing the Worker sent can reach the terminal raw).
    if (typeof answer.approval !== "string" || !/^[\x21-\x7e]+$/.test(answer.approval)) throw new CliError("the Worker's answer has no approval this command can print; nothing to paste");
    process.stderr.write("Paste this into the consent page:\n");
    process.stdout.write(`${answer.approval}\n`);
    return 0;
  }
  const identityOut = flagString(f, "identity-out");
  if (action === "create" && identityOut !== undefined) {
    writeFileSync(identityOut, (JSON.parse(text) as { identity: string }).identity);
  }
  process.stdout.write(text.endsWith("\n") ? text : text + "\n");
  if (scope !== undefined) checkAllowedScope(JSON.parse(text), scope);
  return 0;
}

export const command: Command = { summary: "create, list, get or retire the motebits of a fleet Worker; approve or allow their OAuth clients", help: HELP, run };

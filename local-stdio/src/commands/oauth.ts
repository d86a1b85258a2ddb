// motebit-local oauth: the owner's side of a motebit's OAuth clients (docs/connect-an-mcp-host.md). The key stays
// here: "approve" signs the one pending request the consent page shows; "allow", "list" and "revoke" send a
// command signed for one use. The server only ever sees signatures.
import { createSigner, normalizeCode, OAUTH_ENDPOINTS, type OwnerCommand, signApproval, signOwnerCommand, sovereignMotebitId, visible } from "motebit-edge/core";
import type { Command } from "./command.js";
import { CliError } from "../cli-error.js";
import { EXIT_STATUS, flagString, parseFlags, UsageError } from "../flags.js";
import { readKeyFile } from "../keyfile.js";
import { allowScope, checkAllowedScope } from "./allow-scope.js";
import { checkFetchedRequest, describeRequest } from "./fetched-request.js";

const HELP = `Usage: motebit-local oauth approve <code> --url URL --key FILE [--trust verified|first_contact]
       motebit-local oauth allow <client_id> --url URL --key FILE [--trust verified|first_contact] [--scope S]
       motebit-local oauth list --url URL --key FILE
       motebit-local oauth revoke <client_id> --url URL --key FILE

An MCP host (Claude, ChatGPT, mcp-remote, the MCP SDK) that connects through OAuth shows its user this
motebit's consent page with a request code. "approve" reads that pending request from the motebit, refuses
it unless it is the code typed and for --url's /mcp, shows what it asks for on stderr (control characters
written out as \\u{..}), and prints an approval signed with the motebit's key, bound to that client,
redirect URI, PKCE challenge and expiry: paste it into the page. "allow" lets a keyed agent (its client_id
an https Client ID Metadata Document URL whose jwks publishes its Ed25519 or P-256 key) get tokens without a
browser (client_credentials with private_key_jwt, docs/clients.md), with --trust and --scope. "list" prints the clients with access
("clients"), apart from revoked ones ("revoked") and registrations never approved ("never_approved");
"revoke" ends a client's access at once (its tokens fail, its stored tasks end with signed failed receipts;
it keeps its registration, so it may ask for consent again, which only a new approval grants).

Options:
  --url URL     the motebit's base URL as the consent page shows it (https://host, or https://host/m/<name>)
  --key FILE    the motebit's own key file (motebit.key); it never leaves this machine
  --trust T     approve, allow: the trust the client gets: first_contact (default; "unknown" means the same),
                risk-free tools only without approval, or verified
  --scope S     allow: the OAuth scopes its tokens get, space-separated, of motebit:read motebit:tools
                motebit:task motebit:remember (default: all four)

A fleet motebit's key lives in its Worker: its operator approves with "motebit-local fleet approve".

${EXIT_STATUS}`;

export const SPEC = { url: "string", key: "string", trust: "string", scope: "string" } as const;

const TRUSTS: Record<string, "first_contact" | "verified"> = { first_contact: "first_contact", unknown: "first_contact", verified: "verified" };

async function call(base: string, path: string, init?: RequestInit): Promise<unknown> {
  let res: Response;
  try {
    res = await fetch(base + path, init);
  } catch (e) {
    throw new CliError(`cannot reach ${base}: ${(e as Error).message}`);
  }
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    /* not JSON: the text as it came */
  }
  if (!res.ok) throw new CliError(`${path}: HTTP ${res.status}: ${(body as { error?: string })?.error ?? text}`);
  return body;
}

async function run(argv: string[]): Promise<number> {
  const f = parseFlags(argv, SPEC, "oauth");
  const [action, arg, ...extra] = f.positionals;
  if (action !== "approve" && action !== "allow" && action !== "list" && action !== "revoke") throw new UsageError("an action is required: approve, allow, list, revoke");
  if (extra.length > 0 || (action === "list" && arg !== undefined)) throw new UsageError(`unexpected argument "${extra[0] ?? arg}"`);
  if (action !== "list" && arg === undefined) throw new UsageError(action === "approve" ? "the request code is required" : "the client_id is required");
  const url = flagString(f, "url");
  const keyPath = flagString(f, "key");
  if (url === undefined) throw new UsageError("--url URL is required");
  if (keyPath === undefined) throw new UsageError("--key FILE is required");
  // The MCP URL works too: the motebit's base is what comes before /mcp.
  const base = url.replace(/\/+$/, "").replace(/\/mcp$/, "");
  const trustText = flagString(f, "trust") ?? "first_contact";
  const trust = TRUSTS[trustText];
  if (trust === undefined) throw new UsageError(`--trust must be verified or first_contact, got "${trustText}"`);
  const scope = allowScope(action, flagString(f, "scope"));

  const { seedHex, warnings } = readKeyFile(keyPath);
  for (const w of warnings) process.stderr.write(`motebit-local oauth: ${w}\n`);
  const signer = await createSigner(seedHex);
  const motebitId = await sovereignMotebitId(signer.publicKeyHex);

  if (action === "approve") {
    const fetched = await call(base, `${OAUTH_ENDPOINTS.requestDetails.path}${encodeURIComponent(normalizeCode(arg!))}`);
    const d = checkFetchedRequest(fetched, arg!, `${base}/mcp`);
    if (d.motebit_id !== motebitId) throw new CliError(`${base} is motebit ${visible(d.motebit_id)}; ${keyPath} is the key of ${motebitId}`);
    process.stderr.write(`${describeRequest(d, trust)}Paste this into the consent page:\n`);
    process.stdout.write(`${await signApproval(d, trust, signer)}\n`);
    return 0;
  }
  const allow: OwnerCommand = { op: "allow", client_id: arg!, trust, ...(scope === undefined ? {} : { scope }) };
  const op: OwnerCommand = action === "list" ? { op: "list" } : action === "allow" ? allow : { op: "revoke", client_id: arg! };
  const command = await signOwnerCommand(motebitId, op, Date.now(), signer);
  const answer = await call(base, OAUTH_ENDPOINTS.owner.path, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ command }) });
  process.stdout.write(JSON.stringify(answer, null, 2) + "\n");
  checkAllowedScope(answer, scope);
  return 0;
}

export const command: Command = { summary: "approve, list or revoke the OAuth clients (MCP hosts) of a motebit", help: HELP, run };

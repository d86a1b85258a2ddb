// motebit-local server-json: the MCP Registry's server.json for a deployed motebit, as that motebit serves and
// signs it (<url>/server.json), checked before it is printed: its signature, and the key when --key pins one.
import { didKeyToPublicKey, MOTEBIT_META_KEY, REGISTRY_META_KEY, SIGNATURE_META_KEY, verifyDetached } from "motebit-edge/core";
import type { Command } from "./command.js";
import { CliError } from "../cli-error.js";
import { fetchPublicJson } from "../public-json.js";
import { EXIT_STATUS, flagString, parseFlags, UsageError } from "../flags.js";

const HELP = `Usage: motebit-local server-json URL [--key HEX|did:key]

Prints the server.json (MCP Registry schema 2025-12-11) of the motebit at URL, the address it
is served at: an edge deployment (https://motebit.example), a fleet motebit
(https://fleet.example/m/<name>) or "motebit-local serve --serve-transport http". The motebit
signs it with its own key; the signature is checked before anything is printed.

Its name is the motebit's host in reverse-DNS form, then its name (motebit.example.com gives
com.example.motebit/<name>): the MCP Registry publishes it once you prove that domain (the DNS
or HTTP authentication of mcp-publisher). Publish with: mcp-publisher publish server.json

Options:
  --key K   the motebit's public key (64 hex chars or did:key): refuse a document signed by
            any other key (without it, the key the document names is taken on trust)

${EXIT_STATUS}`;

export const SPEC = { key: "string" } as const;
type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

async function run(argv: string[]): Promise<number> {
  const flags = parseFlags(argv, SPEC, "server-json");
  if (flags.positionals.length !== 1) throw new UsageError("give the motebit's URL, e.g. motebit-local server-json https://motebit.example");
  let base: URL;
  try {
    base = new URL(flags.positionals[0]);
  } catch {
    throw new UsageError(`"${flags.positionals[0]}" is not a URL`);
  }
  const keyFlag = flagString(flags, "key");
  const pinned = keyFlag === undefined ? undefined : keyFlag.startsWith("did:key:") ? didKeyToPublicKey(keyFlag) : keyFlag.toLowerCase();
  if (pinned !== undefined && !/^[0-9a-f]{64}$/.test(pinned)) throw new UsageError("--key must be 64 hex characters or a did:key");
  const url = `${base.origin}${base.pathname.replace(/\/+$/, "")}/server.json`;
  const { status, body: doc } = await fetchPublicJson(url);
  if (status < 200 || status > 299) throw new CliError(`${url} answered HTTP ${status}: is this a motebit's address?`);
  const provided = isObject(doc) && isObject(doc._meta) ? doc._meta[REGISTRY_META_KEY] : undefined;
  if (!isObject(doc) || !isObject(provided) || !isObject(provided[MOTEBIT_META_KEY])) throw new CliError(`${url} is not a motebit's server.json`);
  const { [SIGNATURE_META_KEY]: jws, ...unsignedMeta } = provided;
  const named = (provided[MOTEBIT_META_KEY] as Json).public_key;
  if (typeof named !== "string") throw new CliError(`${url} names no public key`);
  if (pinned !== undefined && named !== pinned) throw new CliError(`${url} is signed for key ${named}, not the --key given`);
  if (!(await verifyDetached({ ...doc, _meta: { [REGISTRY_META_KEY]: unsignedMeta } }, jws, named))) {
    throw new CliError(`${url}: the signature does not verify under the key it names: the document was changed after signing`);
  }
  process.stdout.write(JSON.stringify(doc, null, 2) + "\n");
  return 0;
}

export const command: Command = { summary: "print a deployed motebit's signed server.json (MCP Registry)", help: HELP, run };

import { createSigner, mintBearerToken, SIGNED_TOKEN_PREFIX, sovereignMotebitId } from "motebit-edge/core";
import type { Command } from "./command.js";
import { EXIT_STATUS, flagInteger, flagString, parseFlags, UsageError } from "../flags.js";
import { readKeyFile } from "../keyfile.js";

const HELP = `Usage: motebit-local token --key FILE --sub MOTEBIT_ID [--aud mcp:call|task:dispatch] [--ttl SECONDS] [--did DEVICE_ID]

Mints one signed bearer token with the Ed25519 key in FILE (as written by "init") and prints it
with its "motebit:" prefix, ready for "Authorization: Bearer <token>".

Options:
  --key FILE     the signer's key file (64 hex chars, e.g. motebit.key)
  --sub ID       the motebit_id of the server the token is for (GET /health tells it)
  --aud A        audience: mcp:call (default) for a request, task:dispatch for motebit_task's dispatch_token
  --ttl S        lifetime in seconds, 1 to 300 (default 60; servers refuse more than 5 minutes)
  --did ID       the caller's device id claim (default "motebit-local")

A token is good for one request: servers refuse a replayed jti. The server must know the key:
its own key (you are then still a peer, never the owner), a MOTEBIT_KNOWN_CALLERS entry, or the relay key.

${EXIT_STATUS}`;

export const SPEC = { key: "string", sub: "string", aud: "string", ttl: "string", did: "string" } as const;
const AUDIENCES = ["mcp:call", "task:dispatch"];

export const command: Command = {
  summary: "mint a signed bearer token for a motebit server",
  help: HELP,
  async run(argv) {
    const f = parseFlags(argv, SPEC, "token");
    if (f.positionals.length > 0) throw new UsageError(`unexpected argument "${f.positionals[0]}"`);
    const keyPath = flagString(f, "key");
    const sub = flagString(f, "sub");
    if (keyPath === undefined) throw new UsageError("--key FILE is required");
    if (sub === undefined) throw new UsageError("--sub MOTEBIT_ID is required");
    const aud = flagString(f, "aud") ?? "mcp:call";
    if (!AUDIENCES.includes(aud)) throw new UsageError(`--aud must be one of ${AUDIENCES.join(", ")}, got "${aud}"`);
    const ttl = flagInteger(f, "ttl", 1, 300) ?? 60;
    const { seedHex, warnings } = readKeyFile(keyPath);
    for (const w of warnings) process.stderr.write(`motebit-local token: ${w}\n`);
    const signer = await createSigner(seedHex);
    const mid = await sovereignMotebitId(signer.publicKeyHex);
    const token = await mintBearerToken({ mid, did: flagString(f, "did") ?? "motebit-local", aud, sub, ttlMs: ttl * 1000 }, signer);
    process.stdout.write(`${SIGNED_TOKEN_PREFIX}${token}\n`);
    return 0;
  },
};

import { existsSync, mkdirSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { createIdentityDoc, createSigner, generateSeedHex, publicKeyToDidKey, signIdentityFile } from "motebit-edge/core";
import type { Command } from "./command.js";
import { EXIT_STATUS, flagString, parseFlags, UsageError } from "../flags.js";
import { writeKeyFile } from "../keyfile.js";
import { keyTrackableByGit, writeKeyGitignore } from "../key-out-of-git.js";
import { fileState, secretFileState, writePlainFile } from "../secret-file.js";

const HELP = `Usage: motebit-local init [--dir D] [--type personal|service] [--name N] [--force] [--print-key]

Create a new motebit: a fresh Ed25519 key in D/motebit.key (mode 0600) and a signed
identity file D/motebit.md. Keys stay out of git: D/.gitignore (written when D has none)
ignores motebit.key, and init warns when the key would still be tracked. Best keep your
motebit outside any repository, e.g. --dir ~/motebit.

Options:
  --dir D          directory to create them in (default ".", created if missing)
  --type T         personal (default: guarded, asks the owner above R1_DRAFT) or
                   service (runs up to R3_EXECUTE unattended, refuses anything above)
  --name N         service name (service motebits)
  --force          replace an existing motebit.md and motebit.key (the old key is lost)
  --print-key      also print the private key hex (it is never printed otherwise)

${EXIT_STATUS}`;

/** What a personal identity serves other agents: no task runs without the owner, and nothing approves over HTTP. */
const PERSONAL_PEERS =
  "get no tasks: a personal motebit asks its owner before any motebit_task, and no one can approve over HTTP, so a peer's is refused (read-only R0 tools still answer); to serve other agents, init --type service";

export const SPEC = { dir: "string", type: "string", name: "string", force: "boolean", "print-key": "boolean" } as const;

/** Paths as the user should type them back: "motebit.md" → "./motebit.md". */
function shown(p: string): string {
  return isAbsolute(p) || p.startsWith(".") ? p : "./" + p;
}

async function run(argv: string[]): Promise<number> {
  const flags = parseFlags(argv, SPEC, "init");
  if (flags.positionals.length > 0) throw new UsageError(`unexpected argument "${flags.positionals[0]}" (use --dir to choose the directory)`);
  const dir = flagString(flags, "dir") ?? ".";
  const type = flagString(flags, "type") ?? "personal";
  const name = flagString(flags, "name");
  if (type !== "personal" && type !== "service") throw new UsageError(`--type must be "personal" or "service", got "${type}"`);
  const keyPath = join(dir, "motebit.key");
  const idPath = join(dir, "motebit.md");
  if (!flags.values.has("force")) {
    const existing = [idPath, keyPath].filter((p) => existsSync(p));
    if (existing.length > 0) {
      process.stderr.write(`motebit-local init: ${existing.map(shown).join(" and ")} already exist${existing.length === 1 ? "s" : ""}; ` +
        "refusing to overwrite (use --force to replace both motebit.md and motebit.key)\n");
      return 1;
    }
  }
  if (name !== undefined && type !== "service") process.stderr.write("motebit-local init: note: --name is recorded for service motebits only\n");

  mkdirSync(dir, { recursive: true });
  // Both checked before either is written: a planted link at either name stops init with nothing written.
  secretFileState(keyPath);
  fileState(idPath);
  const seedHex = generateSeedHex();
  const signer = await createSigner(seedHex);
  const doc = await createIdentityDoc({ publicKeyHex: signer.publicKeyHex, type, name });
  const file = await signIdentityFile(doc, signer);
  const gitignore = writeKeyGitignore(dir);
  writeKeyFile(keyPath, seedHex);
  writePlainFile(idPath, file);
  if (keyTrackableByGit(keyPath)) {
    process.stderr.write(
      `motebit-local init: warning: ${shown(keyPath)} is inside a git work tree and not ignored: add motebit.key to ` +
        `${shown(join(dir, ".gitignore"))}, or keep your motebit outside the repository (e.g. --dir ~/motebit)\n`,
    );
  }

  const out = [
    `Created a ${type} motebit.`,
    `  identity file  ${shown(idPath)}  (signed, public: share it freely)`,
    `  private key    ${shown(keyPath)}  (mode 0600: keep it secret, never commit it)`,
    ...(gitignore ? [`  .gitignore     ${shown(gitignore)}  (keeps motebit.key and .motebit/ out of git)`] : []),
    `  motebit_id     ${doc.motebit_id}`,
    `  did:key        ${publicKeyToDidKey(signer.publicKeyHex)}`,
    `  type           ${type}`,
  ];
  if (doc.service_name) out.push(`  service_name   ${doc.service_name}`);
  // Said here because nothing else does until a peer's first task is refused: personal is the default.
  if (type === "personal") out.push(`  peers          ${PERSONAL_PEERS}`);
  if (flags.values.has("print-key")) out.push(`  private key    ${seedHex}`);
  out.push(
    "",
    "Next steps:",
    "  Run it on this machine (MCP over stdio, you are the owner):",
    `    npx motebit-local serve --identity ${shown(idPath)}`,
    "  Hand it to the edge (the Worker reads these two secrets):",
    `    npx wrangler secret put MOTEBIT_PRIVATE_KEY < ${shown(keyPath)}`,
    `    npx wrangler secret put MOTEBIT_IDENTITY < ${shown(idPath)}`,
    `  Check the identity file any time:`,
    `    npx motebit-local verify ${shown(idPath)}`,
  );
  process.stdout.write(out.join("\n") + "\n");
  return 0;
}

export const command: Command = { summary: "create a key and a signed identity file (motebit.md)", help: HELP, run };

// motebit-local create: a new project of the user's own — Worker entry, tools and their test, wrangler config,
// a signed identity with its key (kept out of git) and .dev.vars ready for `npm start`.
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { basename, join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { createIdentityDoc, createSigner, generateSeedHex, signIdentityFile } from "motebit-edge/core";
import type { Command } from "./command.js";
import { CliError } from "../cli-error.js";
import { EXIT_STATUS, flagString, parseFlags, UsageError } from "../flags.js";
import { readKeyFile, writeKeyFile } from "../keyfile.js";
import { fileState, ownFolder, secretFileState, writePlainFile, writeSecretFile } from "../secret-file.js";
import { checkoutRoot, localPackages } from "../scaffold/local-packages.js";
import * as t from "../scaffold/templates.js";

const HELP = `Usage: motebit-local create <dir> [--type service|personal] [--name N] [--force] [--registry]
       motebit-local create --fleet <dir> [--name N] [--force] [--registry]

Create a project that serves its own tools as a motebit, on the edge or on this machine:
  package.json      npm start (local edge), npm test, npm run deploy, npm run start:node
                    (both start scripts on 127.0.0.1, port $PORT, default ${t.DEFAULT_PROJECT_PORT})
  wrangler.toml     the Worker and its Durable Object
  src/index.ts      the Worker (five lines), src/tools.ts one example tool, test/tools.test.ts its test
  motebit.md        the signed identity; motebit.key its private key (mode 0600, git-ignored)
  .dev.vars         the key, the identity and a random auth token for npm start (git-ignored)
  motebit.json      the same auth token for npm run start:node (mode 0600, git-ignored)

The project depends on motebit-edge and motebit-local. When this CLI runs from a checkout of the
repository or was installed from tarballs, the project points at those same local packages (file:
paths), so it installs before anything is published; installed from the registry, at its version.

Options:
  --type T     service (default: runs tools up to R3_EXECUTE unattended) or personal
  --name N     the package, Worker and service name (default: the folder's name)
  --force      write into a folder that is not empty (an existing motebit.key is kept, never replaced)
  --registry   depend on the published packages even when local ones are at hand
  --fleet      a fleet Worker instead: many motebits at /m/<name>/mcp, created with "motebit-local fleet";
               no motebit.key or motebit.md (each fleet motebit's key is made inside its object), and
               fleet.token + .dev.vars hold a random MOTEBIT_FLEET_TOKEN (mode 0600, git-ignored)

Then: cd <dir> && npm install && npm start
Run from a checkout of the motebit-edge repository, <dir> must lie outside it (e.g. ~/my-agent).

${EXIT_STATUS}`;

export const SPEC = { type: "string", name: "string", force: "boolean", registry: "boolean", fleet: "boolean" } as const;

/** npm package names: lower case, no spaces; the folder's name made into one. */
function packageName(raw: string): string {
  const name = raw.toLowerCase().replace(/[^a-z0-9._-]+/g, "-").replace(/^[-._]+|[-._]+$/g, "");
  if (name === "") throw new UsageError(`cannot make a package name from "${raw}"; pass --name`);
  return name.slice(0, 63);
}

/** This CLI's package folder (the bundle is its dist/cli.js). */
const OWN_DIR = fileURLToPath(new URL("..", import.meta.url));

/** The version range the project asks for: this CLI's own version (motebit-edge ships with it). */
function motebitVersion(): string {
  const pkg = JSON.parse(readFileSync(join(OWN_DIR, "package.json"), "utf8")) as { version: string };
  return `^${pkg.version}`;
}

/**
 * Run from a checkout of this repository (README: clone, `npm ci`, then `create`), a relative folder would land
 * inside the checkout: untracked in its git, under its workspace. Refused with where to put it instead.
 */
function refuseInsideCheckout(dir: string): void {
  const repo = checkoutRoot(OWN_DIR.replace(/[\\/]$/, ""));
  if (repo === null || (dir !== repo && !dir.startsWith(repo + sep))) return;
  throw new CliError(`${dir} is inside the motebit-edge checkout ${repo}; create the project outside it, e.g. npx motebit-local create ~/${basename(dir)}`);
}

async function run(argv: string[]): Promise<number> {
  const f = parseFlags(argv, SPEC, "create");
  if (f.positionals.length !== 1) throw new UsageError(f.positionals.length === 0 ? "a directory is required" : `unexpected argument "${f.positionals[1]}"`);
  const dir = resolve(f.positionals[0]);
  const type = flagString(f, "type") ?? "service";
  if (type !== "service" && type !== "personal") throw new UsageError(`--type must be "service" or "personal", got "${type}"`);
  const name = packageName(flagString(f, "name") ?? basename(dir));
  refuseInsideCheckout(dir);
  if (existsSync(dir) && readdirSync(dir).length > 0 && !f.values.has("force")) {
    throw new CliError(`${dir} is not empty; refusing to write into it (use --force; an existing motebit.key is kept)`);
  }
  // --force writes into a folder someone else may have filled: no file or folder is written through a link.
  mkdirSync(dir, { recursive: true });
  for (const sub of [join(dir, "src"), join(dir, "test")]) ownFolder(sub);

  const local = f.values.has("registry") ? null : localPackages(OWN_DIR.replace(/[\\/]$/, ""));
  const linkedFolders = [local?.edge, local?.local]
    .filter((spec): spec is string => spec !== undefined && !spec.endsWith(".tgz"))
    .map((spec) => `file:${relative(dir, spec.slice("file:".length))}`);
  const settings: t.ProjectSettings = { name, type, edgeSpec: local?.edge ?? motebitVersion(), localSpec: local?.local ?? motebitVersion(), linkedFolders };
  if (f.values.has("fleet")) {
    if (f.values.has("type")) throw new UsageError("--type is for one motebit; fleet motebits get theirs from \"motebit-local fleet create --type\"");
    return scaffoldFleet(dir, f.positionals[0], { ...settings, type: "service" });
  }

  const secret = new Set([".dev.vars", "motebit.json"]);
  // Every file is checked before any is written: a symlinked .dev.vars or README.md stops the command before a key is made.
  for (const path of secret) secretFileState(join(dir, path));
  for (const path of ["motebit.md", ".gitignore", "README.md", ...Object.keys(projectFiles(settings))]) fileState(join(dir, path));
  const keyPath = join(dir, "motebit.key");
  const kept = secretFileState(keyPath) === "file";
  if (!kept) writeKeyFile(keyPath, generateSeedHex());
  const key = readKeyFile(keyPath);
  // A kept key is never rewritten (motebits answer to it); one others can read is said, not silently kept.
  for (const w of key.warnings) process.stderr.write(`motebit-local create: warning: ${w}\n`);
  const signer = await createSigner(key.seedHex);
  const doc = await createIdentityDoc({ publicKeyHex: signer.publicKeyHex, type, name: type === "service" ? name : undefined });
  const identity = await signIdentityFile(doc, signer);

  const authToken = randomBytes(24).toString("hex");
  const files: Record<string, string> = {
    ...projectFiles(settings),
    ".gitignore": t.GITIGNORE,
    "README.md": t.readme(settings, doc.motebit_id),
    "motebit.md": identity,
    // Backticks keep the multi-line identity literal (.dev.vars syntax); the token lets plain MCP clients in.
    ".dev.vars": `MOTEBIT_PRIVATE_KEY=${key.seedHex}\nMOTEBIT_IDENTITY=\`${identity}\`\nMOTEBIT_AUTH_TOKEN=${authToken}\n`,
    // The same token for `npm run start:node` (motebit-local takes secrets from its config file or the environment, never a flag).
    "motebit.json": JSON.stringify({ authToken }, null, 2) + "\n",
  };
  for (const [path, text] of Object.entries(files)) {
    if (secret.has(path)) writeSecretFile(join(dir, path), text);
    else writePlainFile(join(dir, path), text);
  }
  process.stdout.write(
    [
      `Created ${name}, a ${type} motebit, in ${dir}`,
      `  motebit_id  ${doc.motebit_id}`,
      `  key         motebit.key (${kept ? "kept: it was already there" : "new, mode 0600"}; git-ignored, with .dev.vars and motebit.json)`,
      ...(local ? [`  packages    the local ones this CLI runs from: ${local.edge}, ${local.local} (--registry for the published ones)`] : []),
      "",
      "Next:",
      `  cd ${f.positionals[0]}`,
      "  npm install",
      `  npm start      # http://127.0.0.1:${t.DEFAULT_PROJECT_PORT}/mcp (PORT=… for another port)`,
      "",
    ].join("\n"),
  );
  return 0;
}

/** What every created project holds, one motebit or a fleet: the package, the Worker, its tools and their test. */
function projectFiles(settings: t.ProjectSettings): Record<string, string> {
  return {
    "package.json": t.packageJson(settings),
    "wrangler.toml": t.wranglerToml(settings),
    "src/index.ts": t.WORKER_ENTRY,
    "src/tools.ts": t.TOOLS_MODULE,
    "test/tools.test.ts": t.TOOLS_TEST,
  };
}

export const command: Command = { summary: "create a project that serves its own tools (edge + local)", help: HELP, run };

/** A fleet Worker: the same Worker entry, tools and wrangler config; an operator token instead of a motebit key. */
function scaffoldFleet(dir: string, given: string, settings: t.ProjectSettings): number {
  const token = randomBytes(32).toString("hex");
  const files: Record<string, string> = {
    ...projectFiles(settings),
    ".gitignore": t.GITIGNORE + "fleet.token\n",
    "README.md": t.fleetReadme(settings),
  };
  const tokenPath = join(dir, "fleet.token");
  const devVars = join(dir, ".dev.vars");
  // Secrets are checked before anything is written: a symlinked one stops the command with nothing half-made.
  const tokenKept = secretFileState(tokenPath) === "file";
  const devVarsKept = secretFileState(devVars) === "file";
  for (const path of Object.keys(files)) fileState(join(dir, path));
  for (const [path, text] of Object.entries(files)) writePlainFile(join(dir, path), text);
  // An existing token is kept: motebits already created answer to it.
  if (!tokenKept) writeSecretFile(tokenPath, token + "\n");
  const current = readFileSync(tokenPath, "utf8").trim();
  // A .dev.vars without the token gets it by being replaced (its lines and the token, as a new 0600 file), never appended to.
  const before = devVarsKept ? readFileSync(devVars, "utf8") : "";
  if (!/^MOTEBIT_FLEET_TOKEN=/m.test(before)) {
    writeSecretFile(devVars, before === "" ? `MOTEBIT_FLEET_TOKEN=${current}\n` : `${before}${before.endsWith("\n") ? "" : "\n"}MOTEBIT_FLEET_TOKEN=${current}\n`);
  }
  const made = !tokenKept;
  process.stdout.write(
    [
      `Created ${settings.name}, a fleet Worker, in ${dir}`,
      `  operator token  fleet.token (${made ? "new, mode 0600" : "kept: it was already there"}; git-ignored, with .dev.vars)`,
      "",
      "Next:",
      `  cd ${given}`,
      "  npm install",
      "  npm start      # http://127.0.0.1:8787",
      "  npx motebit-local fleet create <name> --url http://127.0.0.1:8787 --token-file fleet.token",
      "",
    ].join("\n"),
  );
  return 0;
}

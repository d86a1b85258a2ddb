// motebit-local credentials add FILE|- | list: the owner gives the motebit a credential a relay or peer issued to
// it, so motebit_credentials presents it. Like stdio and `memory`, this runs only for whoever can open the data
// dir: the owner. A credential is verified before it is kept: about this motebit, an issuer's proof that verifies.
import { readFileSync } from "node:fs";
import { createSigner, CredentialStore, notPresentedBecause, publicKeyToDidKey, verifyIdentityFile } from "motebit-edge/core";
import type { Command } from "./command.js";
import { CliError } from "../cli-error.js";
import { EXIT_STATUS, flagString, parseFlags, UsageError } from "../flags.js";
import { LOCATION_FLAGS, LOCATION_HELP, openLocalState } from "../local-state.js";
import type { LocalSql } from "../sqlite-port.js";

const HELP = `Usage: motebit-local credentials add FILE|- [location]
       motebit-local credentials list [location]

The W3C Verifiable Credentials this motebit holds; motebit_credentials presents them.
  add    keeps the credential in FILE (or stdin with "-"): a VerifiableCredential whose
         credentialSubject.id is this motebit's did:key, issued by a did:key with an
         eddsa-jcs-2022 assertion proof that verifies, not expired. Adding it twice keeps one.
         Prints {"id", "added"}.
  list   every credential held, oldest first, as JSON: "presented" says whether
         motebit_credentials presents it now, "not_presented" why not (expired, not
         yet valid, or self-issued: issued by this motebit to itself)

Location (as given to serve; the motebit's key is read from --identity, or from the state
when serve generated it):
${LOCATION_HELP}

${EXIT_STATUS}`;

export const SPEC = { ...LOCATION_FLAGS } as const;
const MAX_CREDENTIAL_BYTES = 1024 * 1024;

/** This motebit's did:key: its identity file's key, or the key serve generated and kept in the state. */
async function subjectOf(identityPath: string | undefined, sql: LocalSql): Promise<string> {
  if (identityPath !== undefined) {
    const v = await verifyIdentityFile(readFileSync(identityPath, "utf8"));
    if (!v.valid || !v.publicKeyHex) throw new CliError(`${identityPath} is not a valid signed identity file: ${v.errors.join("; ")}`);
    return publicKeyToDidKey(v.publicKeyHex);
  }
  const seed = sql.all<{ value: string }>("SELECT value FROM host_meta WHERE key = 'generated_seed_hex'")[0]?.value;
  if (seed === undefined) throw new CliError("cannot tell which motebit this is: give --identity FILE (the one serve runs with)");
  return publicKeyToDidKey((await createSigner(seed)).publicKeyHex);
}

async function readCredential(source: string): Promise<unknown> {
  let text: string;
  if (source === "-") {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin as AsyncIterable<Buffer>) chunks.push(chunk);
    text = Buffer.concat(chunks).toString("utf8");
  } else {
    try {
      text = readFileSync(source, "utf8");
    } catch (e) {
      throw new CliError(`cannot read ${source}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
    }
  }
  if (text.length > MAX_CREDENTIAL_BYTES) throw new CliError("the credential is larger than 1 MiB");
  try {
    return JSON.parse(text);
  } catch (e) {
    throw new CliError(`the credential is not valid JSON (${(e as Error).message})`);
  }
}

async function run(argv: string[]): Promise<number> {
  const flags = parseFlags(argv, SPEC, "credentials");
  const [action, ...args] = flags.positionals;
  if (action !== "add" && action !== "list") throw new UsageError(action === undefined ? "say what to do: add FILE or list" : `unknown credentials action "${action}" (add FILE, list)`);
  if (action === "add" ? args.length !== 1 : args.length !== 0) throw new UsageError(action === "add" ? 'add takes exactly one FILE, or "-" for stdin' : `unexpected argument "${args[0]}"`);
  const vc = action === "add" ? await readCredential(args[0]) : undefined;
  const { sql } = openLocalState(flags);
  try {
    const store = new CredentialStore(sql);
    store.migrate();
    let out: unknown;
    if (action === "list") {
      const now = Date.now();
      out = store.list().map((c) => {
        const why = notPresentedBecause(c, now);
        return { id: c.id, issuer: c.issuer, added_at: c.addedAt, presented: why === null, ...(why !== null && { not_presented: why }), credential: c.credential };
      });
    } else {
      try {
        out = await store.add(vc, { subject: await subjectOf(flagString(flags, "identity"), sql), now: Date.now() });
      } catch (e) {
        if (e instanceof CliError) throw e;
        throw new CliError((e as Error).message);
      }
    }
    process.stdout.write(JSON.stringify(out, null, 2) + "\n");
    return 0;
  } finally {
    sql.close();
  }
}

export const command: Command = { summary: "add or list the credentials the motebit presents (JSON)", help: HELP, run };

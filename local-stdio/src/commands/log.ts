// motebit-local log: the transparency log of receipts (docs/protocol.md §10). `watch` is anyone's: it keeps the last
// signed tree head it saw of a motebit's public log and fails loudly on one that does not extend it. `leaves` is the
// owner's: the leaves of this motebit's own log, read from its state (the public endpoints give hashes and proofs only).
import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { consistencyProblem, ReceiptLedger, treeHeadProblem } from "motebit-edge/core";
import type { Command } from "./command.js";
import { CliError } from "../cli-error.js";
import { EXIT_STATUS, flagInteger, flagString, parseFlags, UsageError } from "../flags.js";
import { LOCATION_FLAGS, LOCATION_HELP, openLocalState } from "../local-state.js";
import { fetchLog, logBase } from "../log-fetch.js";

const HELP = `Usage: motebit-local log watch URL [--state FILE]
       motebit-local log leaves [--from N] [--limit N] [location]

watch   Fetches the signed tree head of the motebit at URL (its root, or /m/<name> in a fleet),
        checks its signature, and checks that it extends the head kept in FILE (a consistency
        proof from URL/log/consistency). When it does, FILE is replaced by the new head and one
        JSON line {"url","tree_size","root_hash","previous_size"} is printed. When it does not
        (a log rewritten, forked or shrunk, or a head signed by another key), one line says so on
        stderr, FILE is left as it was, and the exit status is 1. Run it from cron.
          --state FILE   where the last head is kept (default: log-head.json)
leaves  Prints this motebit's log leaves in order, as a JSON array of {leaf_index, leaf_hash, task_id}:
        each task_id is a receipt in "motebit-local receipts". The owner's view: it reads the state.
          --from N       the first leaf index (default 0)
          --limit N      how many (default 100, at most 1000)
${LOCATION_HELP}

${EXIT_STATUS}`;

export const SPEC = { ...LOCATION_FLAGS, state: "string", from: "string", limit: "string" } as const;

function readState(path: string): unknown {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw new CliError(`cannot read ${path}: ${(e as Error).message}`);
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new CliError(`${path} is not the JSON tree head this command keeps: move it away to start afresh`);
  }
}

async function watch(url: string, statePath: string): Promise<number> {
  const base = logBase(url);
  const head = await fetchLog(base, "head");
  const bad = await treeHeadProblem(head);
  if (bad !== null) throw new CliError(`${base.href}: the tree head does not verify: ${bad}`);
  const kept = readState(statePath);
  if (kept !== null) {
    const older = kept as { tree_size?: unknown };
    const proof = Number.isSafeInteger(older.tree_size) && (older.tree_size as number) <= (head.tree_size as number)
      ? await fetchLog(base, `consistency?first=${String(older.tree_size)}&second=${String(head.tree_size)}`)
      : {};
    const problem = await consistencyProblem(kept, head, proof);
    if (problem !== null) {
      process.stderr.write(`motebit-local log watch: ${base.href}: NOT CONSISTENT with the head kept in ${statePath}: ${problem}\n`);
      return 1;
    }
  }
  const tmp = `${statePath}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(head, null, 2) + "\n");
  renameSync(tmp, statePath);
  const previous = kept === null ? null : (kept as { tree_size: number }).tree_size;
  process.stdout.write(JSON.stringify({ url: base.href, tree_size: head.tree_size, root_hash: head.root_hash, previous_size: previous }) + "\n");
  return 0;
}

function leaves(flags: ReturnType<typeof parseFlags>): number {
  const from = flagInteger(flags, "from", 0, Number.MAX_SAFE_INTEGER) ?? 0;
  const limit = flagInteger(flags, "limit", 1, 1000) ?? 100;
  const { sql } = openLocalState(flags);
  try {
    const ledger = new ReceiptLedger(sql);
    ledger.migrate();
    const out = ledger.log.leaves(from, limit).map((l) => ({ leaf_index: l.leafIndex, leaf_hash: l.leafHash, task_id: l.taskId }));
    process.stdout.write(JSON.stringify(out, null, 2) + "\n");
    return 0;
  } finally {
    sql.close();
  }
}

async function run(argv: string[]): Promise<number> {
  const flags = parseFlags(argv, SPEC, "log");
  const [sub, ...rest] = flags.positionals;
  if (sub === "watch") {
    if (rest.length !== 1) throw new UsageError("log watch takes exactly one URL");
    return watch(rest[0], flagString(flags, "state") ?? "log-head.json");
  }
  if (sub === "leaves") {
    if (rest.length > 0) throw new UsageError(`unexpected argument "${rest[0]}"`);
    return leaves(flags);
  }
  throw new UsageError(sub === undefined ? "give a subcommand: watch or leaves" : `unknown subcommand "${sub}": watch or leaves`);
}

export const command: Command = { summary: "watch a motebit's transparency log, or list this motebit's log leaves", help: HELP, run };

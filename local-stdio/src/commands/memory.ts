// motebit-local memory list|forget ID|export: the owner reads and forgets memories on this machine, as JSON.
// Like stdio, this runs only for whoever can open the data dir: the owner.
import { MemoryStore, systemClock } from "motebit-edge/core";
import { ownerDefaultEmbedder } from "../encoder/owner-embedder.js";
import type { Command } from "./command.js";
import { CliError } from "../cli-error.js";
import { EXIT_STATUS, flagInteger, flagString, parseFlags, UsageError } from "../flags.js";
import { LOCATION_FLAGS, LOCATION_HELP, openLocalState } from "../local-state.js";

const HELP = `Usage: motebit-local memory list [--scope S] [--limit N] [--forgotten] [location]
       motebit-local memory forget ID [location]
       motebit-local memory export [location]

The motebit's memories, as JSON on stdout.
  list     newest first: every scope ("owner" and "peer:<caller>") unless --scope says which;
           --forgotten includes tombstones of forgotten memories
  forget   erases the memory's content and vector now (its tombstone stays until retention purges it)
  export   every memory, tombstones included, with its edges, oldest first

Options (list only):
  --scope S         only this scope, e.g. "owner" or "peer:static"
  --limit N         how many (default 50, at most 500)
  --forgotten       include tombstones

Location (as given to serve):
${LOCATION_HELP}

${EXIT_STATUS}`;

export const SPEC = { ...LOCATION_FLAGS, scope: "string", limit: "string", forgotten: "boolean" } as const;

async function run(argv: string[]): Promise<number> {
  const flags = parseFlags(argv, SPEC, "memory");
  const [action, ...args] = flags.positionals;
  if (action === undefined) throw new UsageError("say what to do: list, forget ID or export");
  if (!["list", "forget", "export"].includes(action)) throw new UsageError(`unknown memory action "${action}" (list, forget ID, export)`);
  if (action === "forget" ? args.length !== 1 : args.length !== 0) {
    throw new UsageError(action === "forget" ? "forget takes exactly one memory id" : `unexpected argument "${args[0]}"`);
  }
  if (action !== "list" && ["scope", "limit", "forgotten"].some((f) => flags.values.has(f))) {
    throw new UsageError("--scope, --limit and --forgotten apply to list only");
  }
  const limit = flagInteger(flags, "limit", 1, 500);
  const { sql } = openLocalState(flags);
  try {
    // The default embedder (its model loads only on an embed, which list/forget/export never do): naming another
    // here would mark every row for re-embedding at the next serve.
    const store = new MemoryStore({ sql, embedder: ownerDefaultEmbedder(() => {}), index: "embedded", clock: systemClock });
    let out: unknown;
    if (action === "list") {
      out = store.list({ scope: flagString(flags, "scope"), limit, includeForgotten: flags.values.has("forgotten") });
    } else if (action === "export") {
      out = store.exportAll();
    } else {
      const id = args[0];
      if (!(await store.forget(id))) throw new CliError(`no memory "${id}" to forget (unknown id, or already forgotten)`);
      out = { forgotten: id };
    }
    process.stdout.write(JSON.stringify(out, null, 2) + "\n");
    return 0;
  } finally {
    sql.close();
  }
}

export const command: Command = { summary: "list, forget or export the motebit's memories (JSON)", help: HELP, run };

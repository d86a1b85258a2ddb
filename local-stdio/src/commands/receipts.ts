// motebit-local receipts: the ledger of ExecutionReceipts this motebit signed, newest first, as JSON.
import { ReceiptLedger } from "motebit-edge/core";
import type { Command } from "./command.js";
import { EXIT_STATUS, flagInteger, parseFlags, UsageError } from "../flags.js";
import { LOCATION_FLAGS, LOCATION_HELP, openLocalState } from "../local-state.js";

const HELP = `Usage: motebit-local receipts [--limit N] [location]

Prints the signed ExecutionReceipts in the ledger, newest first, as a JSON array of
{"caller", "created_at", "receipt"}. Each receipt verifies on its own:
  motebit-local verify receipt.json

Options:
  --limit N         how many (default 50, at most 500)
${LOCATION_HELP}

${EXIT_STATUS}`;

export const SPEC = { ...LOCATION_FLAGS, limit: "string" } as const;

async function run(argv: string[]): Promise<number> {
  const flags = parseFlags(argv, SPEC, "receipts");
  if (flags.positionals.length > 0) throw new UsageError(`unexpected argument "${flags.positionals[0]}"`);
  const limit = flagInteger(flags, "limit", 1, 500);
  const { sql } = openLocalState(flags);
  try {
    const ledger = new ReceiptLedger(sql);
    ledger.migrate();
    const out = ledger.list({ limit }).map((r) => ({ caller: r.caller, created_at: r.createdAt, receipt: r.receipt }));
    process.stdout.write(JSON.stringify(out, null, 2) + "\n");
    return 0;
  } finally {
    sql.close();
  }
}

export const command: Command = { summary: "print the signed receipt ledger (JSON)", help: HELP, run };

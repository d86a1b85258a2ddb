// A motebit-local database written by each of the two previous releases (test/fixtures/upgrade/<release>/node,
// written through that release's own host: scripts/upgrade-fixtures/) opens under this one: serving over stdio
// and over HTTP migrates it to the current schema versions, and every memory, receipt, used jti and task is kept.
// A database whose schema a newer release wrote is refused with a message that says so, and left as it was.
import { cpSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync as Database } from "node:sqlite";
import { afterAll, describe, expect, it } from "vitest";
import { receiptLeafHash } from "../../../src/log/receipt-leaf.js";
import { callText, connectStdio, freePort, REPO, runCli, startHttpServe, tempDir } from "./helpers/local-cli.js";

// Stores with steps after the first (issues 25 and 30); every other store is at its step 1.
const CURRENT_VERSION: Record<string, number> = { mcp_tasks: 4, receipts: 2, receipt_log: 2, memory: 2, oauth: 4 };

type Row = Record<string, unknown>;

function copyFixture(release: string, dir: string): string {
  const from = join(REPO, "test/fixtures/upgrade", release, "node");
  for (const f of ["motebit.md", "motebit.key", "tools.mjs"]) cpSync(join(from, f), join(dir, f));
  mkdirSync(join(dir, ".motebit"));
  cpSync(join(from, "motebit.sqlite"), join(dir, ".motebit", "motebit.sqlite"));
  return join(dir, "motebit.sqlite");
}

function read(dir: string, fn: (db: Database) => unknown): unknown {
  const db = new Database(join(dir, ".motebit", "motebit.sqlite"));
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

const TASK_COLUMNS = "task_id, caller_id, principal, envelope, tool, args, status, created_at, updated_at, ttl_ms, result, error, input_requests, answers";

/** What must survive, as the old release left it. */
const kept = (db: Database) => ({
  memories: db.prepare("SELECT id, content, sensitivity, scope, created_at FROM memory_nodes ORDER BY id").all() as Row[],
  receipts: db.prepare("SELECT task_id, relay_task_id, caller, status, created_at, json FROM receipts ORDER BY task_id").all() as Row[],
  jti: db.prepare("SELECT * FROM jti_seen ORDER BY jti").all() as Row[],
  tasks: db.prepare(`SELECT ${TASK_COLUMNS} FROM mcp_tasks ORDER BY task_id`).all() as Row[],
});

describe.each(["9330a1d", "4fbfd47"])("a database written by release %s", (release) => {
  const tmp = tempDir();
  afterAll(() => tmp.cleanup());
  copyFixture(release, tmp.dir);
  const identity = join(tmp.dir, "motebit.md");
  const before = read(tmp.dir, kept) as ReturnType<typeof kept>;

  it("holds what the release wrote (two memories, three receipts, used jti, two tasks) and no schema versions", () => {
    expect(before.memories.map((m) => m.content)).toEqual(expect.arrayContaining(["The upgrade fixture's first memory", "The upgrade fixture's second memory"]));
    expect(before.receipts).toHaveLength(3);
    expect(before.jti.length).toBeGreaterThan(0);
    expect(before.tasks).toHaveLength(2);
    expect(read(tmp.dir, (db) => db.prepare("SELECT name FROM sqlite_master WHERE name = 'schema_versions'").all())).toEqual([]);
  });

  it("serves over stdio and over http, keeping every memory, receipt, used jti and task, and records every store at its latest version", async () => {
    const owner = await connectStdio(["--identity", identity, "--tools", join(tmp.dir, "tools.mjs"), "--direct"]);
    try {
      const r = await callText(owner.client, "motebit_recall", { query: "the upgrade fixture's memory", limit: 5 });
      expect(r.isError).toBe(false);
      expect(r.text).toContain("The upgrade fixture's first memory");
      expect(r.text).toContain("The upgrade fixture's second memory");
    } finally {
      await owner.close();
    }
    const server = await startHttpServe(["--identity", identity, "--tools", join(tmp.dir, "tools.mjs"), "--direct", "--serve-port", String(await freePort())]);
    expect((await fetch(`${server.url}/health`)).status).toBe(200);
    expect(await server.stop()).toBe(0);

    expect(read(tmp.dir, kept)).toEqual(before);
    const versions = read(tmp.dir, (db) => db.prepare("SELECT store, version FROM schema_versions ORDER BY store").all()) as Row[];
    expect(versions).toEqual(
      ["audit_log", "credentials", "host_meta", "jti_seen", "mcp_sessions", "mcp_tasks", "memory", "oauth", "oauth_grant_keys", "rate_buckets", "receipt_log", "receipts"].map((store) => ({ store, version: CURRENT_VERSION[store] ?? 1 })),
    );
    // The old vectors were made again by today's default embedder, motebit-local's sentence encoder with the word table.
    expect(read(tmp.dir, (db) => db.prepare("SELECT DISTINCT embedder_id FROM memory_nodes").all())).toEqual([{ embedder_id: "use-lite-512+local-sif-v4-356@0.7" }]);
    // The release's receipts entered the transparency log in ledger order, each leaf over its canonical JSON.
    const ledgerOrder = read(tmp.dir, (db) => db.prepare("SELECT task_id, json FROM receipts ORDER BY rowid").all()) as { task_id: string; json: string }[];
    expect(read(tmp.dir, (db) => db.prepare("SELECT leaf_index, task_id, leaf_hash FROM log_leaves ORDER BY leaf_index").all())).toEqual(
      ledgerOrder.map((r, i) => ({ leaf_index: i, task_id: r.task_id, leaf_hash: receiptLeafHash(JSON.parse(r.json) as object) })),
    );
    // Tasks from before the attempt cap count as started once.
    expect(read(tmp.dir, (db) => db.prepare("SELECT DISTINCT attempts FROM mcp_tasks").all())).toEqual([{ attempts: 1 }]);
    // The release's tasks stay tasks (mcp_tasks 3 keeps synchronous calls beside them, issue 42).
    expect(read(tmp.dir, (db) => db.prepare("SELECT DISTINCT admission FROM mcp_tasks").all())).toEqual([{ admission: null }]);
  });

  it("`receipts` prints the receipts the release signed", async () => {
    const out = await runCli(["receipts", "--identity", identity]);
    expect(out.code).toBe(0);
    const printed = (JSON.parse(out.stdout) as { receipt: unknown }[]).map((r) => r.receipt);
    expect(printed).toEqual(expect.arrayContaining(before.receipts.map((r) => JSON.parse(r.json as string))));
    expect(printed).toHaveLength(3);
  });
});

describe("a database a newer release wrote", () => {
  const tmp = tempDir();
  afterAll(() => tmp.cleanup());

  it("is refused by serve and by `receipts`, with a message that says so, and left unchanged", async () => {
    copyFixture("4fbfd47", tmp.dir);
    const identity = join(tmp.dir, "motebit.md");
    const r = await runCli(["receipts", "--identity", identity]);
    expect(r.code).toBe(0);
    read(tmp.dir, (db) => db.prepare("UPDATE schema_versions SET version = 7 WHERE store = 'receipts'").run());
    const before = read(tmp.dir, kept);

    const refused = await runCli(["receipts", "--identity", identity]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("this database's receipts tables are at schema version 7, but this release knows only up to version 2: a newer release wrote them");
    const serve = await runCli(["serve", "--identity", identity, "--direct"], { stdin: "" });
    expect(serve.code).not.toBe(0);
    expect(serve.stderr).toContain("receipts tables are at schema version 7");
    expect(read(tmp.dir, kept)).toEqual(before);
    expect(read(tmp.dir, (db) => db.prepare("SELECT version FROM schema_versions WHERE store = 'receipts'").get())).toEqual({ version: 7 });
  });
});

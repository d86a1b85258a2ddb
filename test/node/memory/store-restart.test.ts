// A memory written and acknowledged survives the store (and the process) going away.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { openSqlite } from "../../../local-stdio/src/sqlite-port.js";
import { LocalEmbedder } from "../../../src/memory/embedder-local.js";
import { MemoryStore } from "../../../src/memory/store.js";
import { ManualClock } from "./fixtures.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function open(path: string, clock: ManualClock) {
  const sql = openSqlite(path);
  const store = new MemoryStore({ sql, embedder: new LocalEmbedder(), index: "embedded", clock });
  store.migrate();
  return { sql, store };
}

describe("store → restart → recall", () => {
  it("recalls from a new store on the same database file", async () => {
    const dir = mkdtempSync(join(tmpdir(), "motebit-memory-"));
    dirs.push(dir);
    const path = join(dir, "motebit.db");
    const clock = new ManualClock();

    const first = open(path, clock);
    const { node_id } = await first.store.remember({ content: "The deploy key rotates every 90 days", sensitivity: "none", provenance: "owner", scope: "owner" });
    await first.store.remember({ content: "Lunch is at noon on Fridays", sensitivity: "personal", provenance: "owner", scope: "owner" });
    // Warm the in-process index, then drop everything: the new store must rebuild it from rows.
    expect((await first.store.recall({ query: "deploy key", scopes: ["owner"] }))[0].node_id).toBe(node_id);
    first.sql.close();

    const second = open(path, clock);
    const hits = await second.store.recall({ query: "how often does the deploy key rotate", scopes: ["owner"] });
    expect(hits[0]).toMatchObject({ node_id, content: "The deploy key rotates every 90 days", sensitivity: "none", provenance: "owner", memory_type: "semantic" });
    expect(second.store.count()).toBe(2);
    second.sql.close();
  });

  it("migrate is idempotent on an existing database", () => {
    const dir = mkdtempSync(join(tmpdir(), "motebit-memory-"));
    dirs.push(dir);
    const path = join(dir, "motebit.db");
    const clock = new ManualClock();
    const a = open(path, clock);
    a.store.migrate();
    a.store.migrate();
    a.sql.close();
    const b = open(path, clock);
    expect(b.store.count()).toBe(0);
    b.sql.close();
  });
});

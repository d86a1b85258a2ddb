// Issue 5's "done when": each principal's memories come back to it alone, by meaning, after a restart.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { makeMotebit, owner, peer } from "../helpers/motebit.js";
import { ScriptedLlm } from "../helpers/scripted-llm.js";
import { openSqlite, type LocalSql } from "../../../local-stdio/src/sqlite-port.js";
import { stripIdentityTag } from "../../../src/protocol/index.js";

describe("memory crosses no principal boundary, restart or not", () => {
  it("a peer's fact returns to that peer's turn only, the owner's to the owner only, after a restart", async () => {
    const dir = mkdtempSync(join(tmpdir(), "motebit-boundary-"));
    const file = join(dir, "motebit.sqlite");
    const opened: LocalSql[] = [];
    // Runs even when an assertion fails: both handles closed (close() is idempotent), then the folder removed.
    onTestFinished(() => {
      for (const sql of opened) sql.close();
      rmSync(dir, { recursive: true, force: true });
    });
    const open = (): LocalSql => {
      const sql = openSqlite(file);
      opened.push(sql);
      return sql;
    };
    const first = open();
    const before = await makeMotebit({ sql: first });
    await before.call(peer("verified", "alice"), "motebit_remember", { content: "Alice's build server is named hummingbird" });
    await before.call(owner, "motebit_remember", { content: "The owner's favourite editor is helix", sensitivity: "personal" });
    first.close();

    const second = open();
    const llm = new ScriptedLlm("ok");
    const after = await makeMotebit({ sql: second, llm });
    // The owner recalls its own fact by meaning, and never the peer's.
    const ownerHits = JSON.parse(stripIdentityTag(await after.text(owner, "motebit_recall", { query: "which text editor do I like" })));
    expect(ownerHits.map((h: { content: string }) => h.content)).toEqual(["The owner's favourite editor is helix"]);
    expect(ownerHits[0].similarity).toBeGreaterThan(0);

    await after.call(peer("verified", "alice"), "motebit_query", { message: "what is my build server called?" });
    expect(llm.transcript()).toMatch(/hummingbird/);
    expect(llm.transcript()).not.toMatch(/helix/);

    llm.seen.length = 0;
    await after.call(peer("verified", "bob"), "motebit_query", { message: "what is alice's build server called?" });
    expect(llm.transcript()).not.toMatch(/hummingbird|helix/);
    second.close();
  });
});

// The CLI's log tools against a real `serve --serve-transport http`: `verify --log` and `verify --head --proof` place
// a receipt in the signed tree head, and a tree head in a later one; `log watch` keeps the last head and accepts a
// log that grew. Then the operator hides a receipt (deletes its row and rebuilds the log without it): `log watch`
// and `verify` of the old head fail loudly, and the hidden receipt is in no head. A stored receipt altered in place
// is refused by `verify --log` too. `log leaves` shows the owner the leaves, each naming its receipt.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync as Database } from "node:sqlite";
import { afterAll, describe, expect, it } from "vitest";
import { receiptLeafHash } from "../../../src/log/receipt-leaf.js";
import { stripIdentityTag } from "../../../src/protocol/index.js";
import { connectStdio, freePort, initMotebit, runCli, startHttpServe, tempDir, writeToolsModule } from "./helpers/local-cli.js";

describe("verify --log / --head --proof, and log watch", () => {
  const tmp = tempDir();
  afterAll(() => tmp.cleanup());
  const file = (name: string) => join(tmp.dir, name);
  const db = (fn: (d: Database) => void) => {
    const d = new Database(join(tmp.dir, ".motebit", "motebit.sqlite"));
    try {
      fn(d);
    } finally {
      d.close();
    }
  };

  it("places receipts and heads in the log, and catches a log rewritten to hide a receipt", async () => {
    const identity = await initMotebit(tmp.dir);
    const serveArgs = ["--identity", identity, "--tools", writeToolsModule(tmp.dir), "--direct"];
    const owner = await connectStdio(serveArgs);
    const receipts: Record<string, unknown>[] = [];
    try {
      for (const prompt of ["shout one", "shout two", "shout three"]) {
        const r = (await owner.client.callTool({ name: "motebit_task", arguments: { prompt } })) as { content: { text: string }[]; _meta?: Record<string, unknown> };
        receipts.push(JSON.parse(stripIdentityTag(r.content[0].text)) as Record<string, unknown>);
        expect(r._meta?.["motebit/log"]).toMatchObject({ leaf_index: receipts.length - 1, tree_size: receipts.length });
      }
    } finally {
      await owner.close();
    }
    receipts.forEach((r, i) => writeFileSync(file(`r${i}.json`), JSON.stringify(r)));

    const leaves = await runCli(["log", "leaves", "--identity", identity]);
    expect(leaves.code).toBe(0);
    expect(JSON.parse(leaves.stdout)).toEqual(receipts.map((r, i) => ({ leaf_index: i, leaf_hash: receiptLeafHash(r), task_id: r.task_id })));

    let server = await startHttpServe([...serveArgs, "--serve-port", String(await freePort())]);
    try {
      const state = file("watched.json");
      const first = await runCli(["log", "watch", server.url, "--state", state]);
      expect(first.stderr).toBe("");
      expect(first.code).toBe(0);
      expect(JSON.parse(first.stdout)).toMatchObject({ tree_size: 3, previous_size: null });
      writeFileSync(file("head3.json"), readFileSync(state));

      const online = await runCli(["verify", file("r1.json"), "--log", `${server.url}/mcp`]);
      expect(online.code).toBe(0);
      expect(JSON.parse(online.stdout)).toMatchObject({ valid: true, type: "receipt", log: { tree_size: 3, leaf_index: 1 } });

      // Offline: the head and the proof as fetched and saved.
      const head = await (await fetch(`${server.url}/log/head`)).json() as { tree_size: number };
      writeFileSync(file("head.json"), JSON.stringify(head));
      writeFileSync(file("proof.json"), await (await fetch(`${server.url}/log/inclusion?leaf_hash=${receiptLeafHash(receipts[2])}&tree_size=3`)).text());
      expect((await runCli(["verify", file("r2.json"), "--head", file("head.json"), "--proof", file("proof.json")])).code).toBe(0);
      // The proof of another receipt does not place this one.
      const wrong = await runCli(["verify", file("r0.json"), "--head", file("head.json"), "--proof", file("proof.json")]);
      expect(wrong.code).toBe(1);
      expect(JSON.parse(wrong.stdout).errors).toEqual([expect.stringMatching(/^log: the receipt is not leaf 2 of the tree of 3 leaves/)]);
      // A tree head alone is checked as a signed artefact.
      expect(JSON.parse((await runCli(["verify", file("head.json")])).stdout)).toMatchObject({ valid: true, type: "tree_head" });
    } finally {
      await server.stop();
    }

    // The log grows: watch accepts it, and the old head is consistent with the new one.
    const more = await connectStdio(serveArgs);
    try {
      await more.client.callTool({ name: "motebit_task", arguments: { prompt: "shout four" } });
    } finally {
      await more.close();
    }
    server = await startHttpServe([...serveArgs, "--serve-port", String(await freePort())]);
    try {
      const grown = await runCli(["log", "watch", server.url, "--state", file("watched.json")]);
      expect(grown.code).toBe(0);
      expect(JSON.parse(grown.stdout)).toMatchObject({ tree_size: 4, previous_size: 3 });
      expect(JSON.parse((await runCli(["verify", file("head3.json"), "--log", server.url])).stdout)).toMatchObject({ valid: true, type: "tree_head", log: { tree_size: 4 } });

      // A receipt altered in its stored row is not what the log holds (nor does its signature hold).
      const altered = { ...receipts[0], result: "something the motebit never said" };
      writeFileSync(file("altered.json"), JSON.stringify(altered));
      const refused = await runCli(["verify", file("altered.json"), "--log", server.url]);
      expect(refused.code).toBe(1);
      expect(JSON.parse(refused.stdout).errors).toContainEqual(expect.stringMatching(/^log: the log has no leaf for this receipt/));
    } finally {
      await server.stop();
    }

    // The operator hides receipt 1: its row deleted, the log rebuilt from the rest (as a first start would).
    db((d) => {
      d.prepare("DELETE FROM receipts WHERE task_id = ?").run(receipts[1].task_id as string);
      d.exec("DROP TABLE log_leaves; DROP TABLE log_nodes; DELETE FROM schema_versions WHERE store = 'receipt_log'");
    });
    server = await startHttpServe([...serveArgs, "--serve-port", String(await freePort())]);
    try {
      const before = readFileSync(file("watched.json"), "utf8");
      const caught = await runCli(["log", "watch", server.url, "--state", file("watched.json")]);
      expect(caught.code).toBe(1);
      expect(caught.stdout).toBe("");
      expect(caught.stderr.trim().split("\n")).toHaveLength(1);
      expect(caught.stderr).toMatch(/NOT CONSISTENT with the head kept in .*: the log shrank from 4 to 3 leaves/);
      expect(readFileSync(file("watched.json"), "utf8")).toBe(before);

      const forked = await runCli(["verify", file("head3.json"), "--log", server.url]);
      expect(forked.code).toBe(1);
      expect(JSON.parse(forked.stdout).errors).toEqual([expect.stringMatching(/does not extend the tree of 3 leaves .*rewritten or forked/)]);
      const hidden = await runCli(["verify", file("r1.json"), "--log", server.url]);
      expect(hidden.code).toBe(1);
      expect(JSON.parse(hidden.stdout).errors).toContainEqual(expect.stringMatching(/^log: the log has no leaf for this receipt/));
    } finally {
      await server.stop();
    }
  });
});

// Retention purges delete rows (and vectors) in the Durable Object's SQLite, and decay orders recall there too.
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { env } from "./env.js";

const DAY = 86_400_000;

describe("retention and decay in a Durable Object", () => {
  it("purges expired memories from the rows and from the embedded index", async () => {
    await runInDurableObject(env.MEMORY_TEST.get(env.MEMORY_TEST.idFromName("purge")), async (o) => {
      const secret = await o.store.remember({ content: "safe combination 31-7-44", sensitivity: "secret", provenance: "owner", scope: "owner" });
      const plain = await o.store.remember({ content: "safe is in the closet", sensitivity: "none", provenance: "owner", scope: "owner" });
      expect(await o.store.recall({ query: "safe", scopes: ["owner"] })).toHaveLength(2);
      o.clock.t += 8 * DAY;
      expect(await o.store.purgeExpired()).toEqual({ purged: 1 });
      expect(o.sql.all(`SELECT id FROM memory_nodes`)).toEqual([{ id: plain.node_id }]);
      expect((await o.store.recall({ query: "safe combination", scopes: ["owner"] })).map((h) => h.node_id)).toEqual([plain.node_id]);
      expect(o.store.get(secret.node_id)).toBeNull();
    });
  });

  it("ranks the fresher of two equally similar memories first", async () => {
    await runInDurableObject(env.MEMORY_TEST.get(env.MEMORY_TEST.idFromName("decay")), async (o) => {
      const old = await o.store.remember({ content: "Book club meets on Wednesdays", sensitivity: "none", provenance: "owner", scope: "owner" });
      o.clock.t += 10 * DAY;
      const fresh = await o.store.remember({ content: "Book club meets on Wednesdays", sensitivity: "none", provenance: "owner", scope: "owner" });
      expect((await o.store.recall({ query: "book club", scopes: ["owner"] })).map((h) => h.node_id)).toEqual([fresh.node_id, old.node_id]);
    });
  });
});

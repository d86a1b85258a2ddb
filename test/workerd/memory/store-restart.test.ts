// The embedded path inside a Durable Object's real SQLite: store → object restart → recall.
import { abortAllDurableObjects, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { LocalEmbedder } from "../../../src/memory/embedder-local.js";
import { vectorToBlob } from "../../../src/memory/vector-bytes.js";
import { env } from "./env.js";

describe("memory in a Durable Object", () => {
  it("survives an object restart: the new instance rebuilds its index from rows", async () => {
    const id = env.MEMORY_TEST.idFromName("restart");
    const stub = env.MEMORY_TEST.get(id);
    let firstInstance = "";
    const nodeId = await runInDurableObject(stub, async (o) => {
      firstInstance = o.instanceId;
      const { node_id } = await o.store.remember({ content: "The deploy key rotates every 90 days", sensitivity: "none", provenance: "owner", scope: "owner" });
      await o.store.remember({ content: "The cat is called Miso", sensitivity: "personal", provenance: "owner", scope: "owner" });
      expect((await o.store.recall({ query: "deploy key rotation", scopes: ["owner"] }))[0].node_id).toBe(node_id);
      return node_id;
    });

    // A stub does not outlive the instance it reached; a fresh one reaches the restarted object.
    await abortAllDurableObjects();

    await runInDurableObject(env.MEMORY_TEST.get(id), async (o) => {
      expect(o.instanceId).not.toBe(firstInstance);
      const hits = await o.store.recall({ query: "how often does the deploy key rotate", scopes: ["owner"] });
      expect(hits[0]).toMatchObject({ node_id: nodeId, content: "The deploy key rotates every 90 days" });
      expect(o.store.count()).toBe(2);
    });
  });

  it("recovers a row written with indexed = 0 whose index step never ran (crash)", async () => {
    const id = env.MEMORY_TEST.idFromName("crash");
    const stub = env.MEMORY_TEST.get(id);
    await runInDurableObject(stub, (o) => {
      o.store.migrate();
      const e = new LocalEmbedder();
      const now = o.clock.now();
      o.sql.run(
        `INSERT INTO memory_nodes (id, content, sensitivity, provenance, source_id, scope, memory_type, confidence, half_life_days,
           created_at, last_accessed_at, forgotten_at, embedding, embedder_id, indexed)
         VALUES ('crashed', 'Payroll runs on the 25th', 'none', 'owner', NULL, 'owner', 'semantic', 0.9, 7, ?, ?, NULL, ?, ?, 0)`,
        now, now, vectorToBlob(e.embedOne("Payroll runs on the 25th")), e.id,
      );
    });
    await abortAllDurableObjects();
    await runInDurableObject(env.MEMORY_TEST.get(id), async (o) => {
      expect((await o.store.recall({ query: "when does payroll run", scopes: ["owner"] }))[0]?.node_id).toBe("crashed");
      expect(o.sql.all(`SELECT indexed FROM memory_nodes WHERE id = 'crashed'`)).toEqual([{ indexed: 1 }]);
    });
  });

  it("round-trips vectors as BLOBs in the object's SQLite", async () => {
    const stub = env.MEMORY_TEST.get(env.MEMORY_TEST.idFromName("blobs"));
    await runInDurableObject(stub, async (o) => {
      const { node_id } = await o.store.remember({ content: "blob check", sensitivity: "none", provenance: "owner", scope: "owner" });
      const [row] = o.sql.all<{ embedding: ArrayBuffer; embedder_id: string }>(`SELECT embedding, embedder_id FROM memory_nodes WHERE id = ?`, node_id);
      expect(row.embedding).toBeInstanceOf(ArrayBuffer);
      expect(Array.from(new Float32Array(row.embedding))).toEqual(Array.from(new LocalEmbedder().embedOne("blob check")));
      expect(row.embedder_id).toBe("local-ngram-v1-256");
    });
  });
});

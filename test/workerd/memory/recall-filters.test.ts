// Scope and sensitivity filters in both index implementations, inside a Durable Object:
// the embedded index over ctx.storage.sql, and Vectorize through its service-binding double.
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { LocalEmbedder } from "../../../src/memory/embedder-local.js";
import { VectorizeIndex } from "../../../src/memory/index-vectorize.js";
import { SENSITIVITIES } from "../../../src/memory/sensitivity.js";
import type { MemoryStore } from "../../../src/memory/store.js";
import { env } from "./env.js";
import type { MemoryTestObject } from "./memory-test-object.js";

const variants: [string, (o: MemoryTestObject, name: string) => MemoryStore][] = [
  ["embedded", (o) => o.store],
  ["vectorize", (o, name) => o.storeWith({ embedder: new LocalEmbedder(), index: new VectorizeIndex({ binding: env.VECTORIZE_LOCAL, namespace: name }) })],
];

for (const [kind, storeOf] of variants) {
  describe(`recall filters in a Durable Object (${kind} index)`, () => {
    it("serves exactly the given scopes and allowed sensitivities, and nothing for no scopes", async () => {
      const name = `filters-${kind}`;
      await runInDurableObject(env.MEMORY_TEST.get(env.MEMORY_TEST.idFromName(name)), async (o) => {
        const store = storeOf(o, name);
        const ids: Record<string, string> = {};
        for (const s of SENSITIVITIES) ids[s] = (await store.remember({ content: `harbor project ${s} detail`, sensitivity: s, provenance: "owner", scope: "owner" })).node_id;
        const peer = await store.remember({ content: "harbor project detail from a peer", sensitivity: "none", provenance: "peer_agent", scope: "peer:p1", sourceId: "p1" });

        const owner = await store.recall({ query: "harbor project detail", scopes: ["owner"], excludeSensitivities: ["medical", "financial", "secret"] });
        expect(new Set(owner.map((h) => h.node_id))).toEqual(new Set([ids.none, ids.personal]));
        expect((await store.recall({ query: "harbor project detail", scopes: ["peer:p1"] })).map((h) => h.node_id)).toEqual([peer.node_id]);
        expect(await store.recall({ query: "harbor project detail", scopes: ["peer:p2"] })).toEqual([]);
        expect(await store.recall({ query: "harbor project detail", scopes: [] })).toEqual([]);
        expect((await store.recall({ query: "harbor project detail", scopes: ["owner"], excludeSensitivities: ["none", "personal", "medical", "financial"] })).map((h) => h.node_id)).toEqual([ids.secret]);
      });
    });
  });
}

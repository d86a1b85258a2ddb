// Recall ranks by similarity first, then decayed confidence and recency; `similarity` is the raw cosine.
import { describe, expect, it } from "vitest";
import { LocalEmbedder } from "../../../src/memory/embedder-local.js";
import { RECALL_WEIGHTS, decayedConfidence, recallScore, recency } from "../../../src/memory/scoring.js";
import { DAY, makeStore } from "./fixtures.js";

describe("scoring", () => {
  it("halves confidence every half-life and recency every 30 days", () => {
    expect(decayedConfidence(0.8, 7, 0)).toBeCloseTo(0.8);
    expect(decayedConfidence(0.8, 7, 7 * DAY)).toBeCloseTo(0.4);
    expect(decayedConfidence(0.8, 7, 14 * DAY)).toBeCloseTo(0.2);
    expect(recency(0, 30 * DAY)).toBeCloseTo(0.5);
    expect(RECALL_WEIGHTS.similarity + RECALL_WEIGHTS.confidence + RECALL_WEIGHTS.recency).toBeCloseTo(1);
    const s = recallScore({ similarity: 0.5, confidence: 1, halfLifeDays: 7, createdAt: 0, lastAccessedAt: 0 }, 0);
    expect(s).toBeCloseTo(0.75 * 0.5 + 0.15 + 0.1);
  });
});

describe("recall ordering", () => {
  it("puts the fresher of two equally similar memories first", async () => {
    const store = makeStore();
    const old = await store.remember({ content: "The team standup is at 9:30", sensitivity: "none", provenance: "owner", scope: "owner" });
    store.clock.advance(20 * DAY);
    const fresh = await store.remember({ content: "The team standup is at 9:30", sensitivity: "none", provenance: "owner", scope: "owner" });
    const hits = await store.recall({ query: "when is the team standup", scopes: ["owner"] });
    expect(hits.map((h) => h.node_id)).toEqual([fresh.node_id, old.node_id]);
    expect(hits[0].similarity).toBeCloseTo(hits[1].similarity, 6);
  });

  it("puts the more confident of two equally similar, equally old memories first", async () => {
    const store = makeStore();
    const unsure = await store.remember({ content: "The office moves in June", sensitivity: "none", provenance: "peer_agent", scope: "owner" });
    const sure = await store.remember({ content: "The office moves in June", sensitivity: "none", provenance: "owner", scope: "owner" });
    const hits = await store.recall({ query: "office move", scopes: ["owner"] });
    expect(hits.map((h) => [h.node_id, h.confidence])).toEqual([
      [sure.node_id, 0.9],
      [unsure.node_id, 0.5],
    ]);
  });

  it("does not let decay or recency lift an unrelated memory over a close match", async () => {
    const store = makeStore();
    const match = await store.remember({ content: "Parking permit renews in April", sensitivity: "none", provenance: "owner", scope: "owner", confidence: 0.3 });
    store.clock.advance(60 * DAY);
    await store.remember({ content: "Dinner with Sam on Thursday permit", sensitivity: "none", provenance: "owner", scope: "owner", confidence: 1 });
    const hits = await store.recall({ query: "when does the parking permit renew", scopes: ["owner"] });
    expect(hits[0].node_id).toBe(match.node_id);
  });

  it("returns the raw cosine as similarity, and the stored confidence and half-life", async () => {
    const e = new LocalEmbedder();
    const store = makeStore({ embedder: e, halfLifeDays: 14 });
    await store.remember({ content: "Quarterly taxes are due in mid-April", sensitivity: "none", provenance: "owner", scope: "owner", confidence: 0.6, memoryType: "episodic" });
    store.clock.advance(3 * DAY);
    const [hit] = await store.recall({ query: "quarterly taxes", scopes: ["owner"] });
    const a = e.embedOne("Quarterly taxes are due in mid-April"), b = e.embedOne("quarterly taxes");
    const cosine = a.reduce((s, x, i) => s + x * b[i], 0);
    expect(hit.similarity).toBeCloseTo(cosine, 5);
    expect(hit).toMatchObject({ confidence: 0.6, half_life_days: 14, memory_type: "episodic" });
  });

  it("records the recall as an access", async () => {
    const store = makeStore();
    const { node_id } = await store.remember({ content: "Rent is paid on the 1st", sensitivity: "none", provenance: "owner", scope: "owner" });
    store.clock.advance(DAY);
    await store.recall({ query: "rent", scopes: ["owner"] });
    expect(store.get(node_id)?.last_accessed_at).toBe(store.clock.now());
  });
});

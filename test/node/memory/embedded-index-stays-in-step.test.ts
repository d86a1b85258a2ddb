// The embedded index keeps its column-major matrix in step with the rows through every change — growth past
// its capacity, overwrites, swap-removes, updates before it loaded, a reload from rows — so each query returns
// exactly what a brute-force scan of the live rows does. Components are small integers, so every score is
// exact in float arithmetic and compared with ===.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { EmbeddedIndex } from "../../../src/memory/index-embedded.js";
import { migrateMemory } from "../../../src/memory/schema.js";
import { vectorToBlob } from "../../../src/memory/vector-bytes.js";
import type { VectorFilter } from "../../../src/ports.js";
import { memorySql } from "../helpers/sqlite.js";

const DIMS = 24;
const EMBEDDER = "test-embedder";
const SCOPES = ["owner", "peer:a", "peer:b"];
const SENSITIVITIES = ["none", "personal", "secret"];

type Row = { vector: Float32Array; scope: string; sensitivity: string };

// Mostly zeros past a leading run of any length, like hashed features after a word-vector part; sometimes all zero.
const vector = fc
  .tuple(fc.integer({ min: 0, max: DIMS }), fc.array(fc.integer({ min: -6, max: 6 }), { minLength: DIMS, maxLength: DIMS }), fc.array(fc.boolean(), { minLength: DIMS, maxLength: DIMS }))
  .map(([run, values, keep]) => Float32Array.from(values, (x, j) => (j < run || keep[j] ? x : 0)));

const row = fc.record({ id: fc.integer({ min: 0, max: 299 }), vector, scope: fc.constantFrom(...SCOPES), sensitivity: fc.constantFrom(...SENSITIVITIES) });
// Batches as repair upserts them: enough at once to outgrow the capacity the index sized itself at load.
const op = fc.oneof(
  { weight: 5, arbitrary: row.map((r) => ({ kind: "put" as const, rows: [r] })) },
  { weight: 1, arbitrary: fc.array(row, { minLength: 20, maxLength: 80 }).map((rows) => ({ kind: "put" as const, rows })) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("delete" as const), id: fc.integer({ min: 0, max: 299 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("restart" as const) }) },
);

const filter: fc.Arbitrary<VectorFilter | undefined> = fc.option(
  fc.record({ scopes: fc.option(fc.subarray([...SCOPES, "peer:unknown"]), { nil: undefined }), sensitivities: fc.option(fc.subarray(SENSITIVITIES), { nil: undefined }) }),
  { nil: undefined },
);

function dot(a: Float32Array, b: Float32Array): number {
  let s = 0;
  for (let j = 0; j < a.length; j++) s += a[j] * b[j];
  return s;
}

function passes(row: Row, f: VectorFilter | undefined): boolean {
  return (!f?.scopes || f.scopes.includes(row.scope)) && (!f?.sensitivities || f.sensitivities.includes(row.sensitivity));
}

describe("EmbeddedIndex stays in step with its rows", () => {
  it("returns a brute-force scan's scores, for live ids that pass the filter, after every change", async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 80, size: "max" }), vector, fc.integer({ min: 1, max: 40 }), filter, async (ops, query, k, f) => {
        const sql = memorySql();
        migrateMemory(sql);
        const index = new EmbeddedIndex({ sql, embedderId: EMBEDDER, dimensions: DIMS });
        const live = new Map<string, Row>();
        const check = () => {
          const got = index.querySync(query, k, f);
          const want = [...live.values()].filter((r) => passes(r, f)).map((r) => dot(r.vector, query)).sort((a, b) => b - a).slice(0, k);
          expect(got.map((m) => m.score)).toEqual(want);
          expect(new Set(got.map((m) => m.id)).size).toBe(got.length);
          for (const m of got) {
            const row = live.get(m.id)!;
            expect(passes(row, f)).toBe(true);
            expect(m.score).toBe(dot(row.vector, query));
          }
        };
        for (const [n, o] of ops.entries()) {
          if (o.kind === "put") {
            // As the store does: the rows first, then the index (which ignores them until it has loaded).
            const items = o.rows.map((r) => ({ id: `m${r.id}`, vector: r.vector, scope: r.scope, sensitivity: r.sensitivity }));
            for (const it of items) {
              sql.run(
                `INSERT OR REPLACE INTO memory_nodes (id, content, sensitivity, provenance, scope, memory_type, confidence, half_life_days, created_at, last_accessed_at, embedding, embedder_id, indexed)
                 VALUES (?, 'x', ?, 'owner', ?, 'fact', 0.9, 7, 0, 0, ?, ?, 1)`,
                it.id, it.sensitivity, it.scope, vectorToBlob(it.vector), EMBEDDER,
              );
              live.set(it.id, it);
            }
            await index.upsert(items);
          } else if (o.kind === "delete") {
            sql.run(`DELETE FROM memory_nodes WHERE id = ?`, `m${o.id}`);
            await index.delete([`m${o.id}`]);
            live.delete(`m${o.id}`);
          } else {
            check();
            index.invalidate();
          }
          // A wrong cell stays wrong until a restart, so checking every few changes catches it and keeps shrinking quick.
          if (n % 4 === 3) check();
        }
        check();
        expect(index.length).toBe(live.size);
        sql.close();
      }),
      // Shrinking a growth failure (batches of 80 vectors) can take minutes; past the limit fast-check reports the smallest case so far.
      { numRuns: 60, interruptAfterTimeLimit: 15_000 },
    );
  });

  it("lists equal scores in the order the vectors were indexed", async () => {
    const sql = memorySql();
    migrateMemory(sql);
    const index = new EmbeddedIndex({ sql, embedderId: EMBEDDER, dimensions: DIMS });
    expect(index.length).toBe(0);
    const v = Float32Array.from({ length: DIMS }, (_, j) => (j % 3 === 0 ? 1 : 0));
    const ids = ["e", "b", "d", "a", "c"];
    await index.upsert(ids.map((id) => ({ id, vector: v, scope: "owner", sensitivity: "none" })));
    expect(index.querySync(v, 3).map((m) => m.id)).toEqual(["e", "b", "d"]);
    expect(index.querySync(v, 9).map((m) => m.id)).toEqual(ids);
  });
});

// The bench inside workerd: a SQLite-backed Durable Object runs MemoryBench over its real ctx.storage.sql.
// Bundled and started by run.ts through Miniflare; GET /step?embedder=E&index=I&size=N&queries=Q[&english=1] grows that
// embedder's store on that index ("current", or "before": before-index.ts) and measures (one object per pair);
// &release=1 drops the object's store, so its memory is free for the next run.
import { DurableObject } from "cloudflare:workers";
import { LocalEmbedder } from "../../src/memory/embedder-local.js";
import { SemanticEmbedder } from "../../src/memory/embedder-semantic.js";
import { MemoryStore } from "../../src/memory/store.js";
import { systemClock } from "../../src/ports.js";
import { durableSqlPort } from "../../durable-objects/sql-port.js";
import { edgeWordTable } from "../../durable-objects/word-table.js";
import { provideWordTable } from "../../src/memory/word-table.js";
import { EmbeddedIndex as BeforeIndex } from "./before-index.js";
import { MemoryBench } from "./bench-core.js";
import { englishWords } from "./english-words.js";

export class BenchObject extends DurableObject {
  private bench: MemoryBench | null = null;

  async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    if (url.searchParams.has("release")) {
      this.bench = null;
      return new Response(null, { status: 204 });
    }
    if (!this.bench) {
      provideWordTable(edgeWordTable);
      const embedder = url.searchParams.get("embedder") === "lexical" ? new LocalEmbedder() : new SemanticEmbedder();
      const sql = durableSqlPort(this.ctx.storage);
      const index = url.searchParams.get("index") === "before" ? new BeforeIndex({ sql, embedderId: embedder.id, dimensions: embedder.dimensions }) : "embedded";
      const store = new MemoryStore({ sql, embedder, index, clock: systemClock });
      store.migrate();
      this.bench = new MemoryBench(store, url.searchParams.get("english") === "1" ? englishWords() : undefined);
    }
    const result = await this.bench.step(Number(url.searchParams.get("size")), Number(url.searchParams.get("queries")));
    return Response.json(result);
  }
}

export default {
  async fetch(request: Request, env: { BENCH: DurableObjectNamespace }): Promise<Response> {
    const q = new URL(request.url).searchParams;
    return env.BENCH.get(env.BENCH.idFromName(`${q.get("embedder")}|${q.get("index")}`)).fetch(request);
  },
};

// The bench inside workerd: a SQLite-backed Durable Object runs MemoryBench over its real ctx.storage.sql.
// Bundled and started by run.ts through Miniflare; GET /step?embedder=E&size=N&queries=Q grows that embedder's store
// (one object per embedder) and measures.
import { DurableObject } from "cloudflare:workers";
import { LocalEmbedder } from "../../src/memory/embedder-local.js";
import { SemanticEmbedder } from "../../src/memory/embedder-semantic.js";
import { MemoryStore } from "../../src/memory/store.js";
import { systemClock } from "../../src/ports.js";
import { durableSqlPort } from "../../durable-objects/sql-port.js";
import { MemoryBench } from "./bench-core.js";

export class BenchObject extends DurableObject {
  private bench: MemoryBench | null = null;

  async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    if (!this.bench) {
      const embedder = url.searchParams.get("embedder") === "lexical" ? new LocalEmbedder() : new SemanticEmbedder();
      const store = new MemoryStore({ sql: durableSqlPort(this.ctx.storage), embedder, index: "embedded", clock: systemClock });
      store.migrate();
      this.bench = new MemoryBench(store);
    }
    const result = await this.bench.step(Number(url.searchParams.get("size")), Number(url.searchParams.get("queries")));
    return Response.json(result);
  }
}

export default {
  async fetch(request: Request, env: { BENCH: DurableObjectNamespace }): Promise<Response> {
    return env.BENCH.get(env.BENCH.idFromName(new URL(request.url).searchParams.get("embedder") ?? "")).fetch(request);
  },
};

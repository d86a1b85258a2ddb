// The bench inside workerd: a SQLite-backed Durable Object runs MemoryBench over its real ctx.storage.sql.
// Bundled and started by run.ts through Miniflare; GET /step?size=N&queries=Q grows the store and measures.
import { DurableObject } from "cloudflare:workers";
import { LocalEmbedder } from "../../src/memory/embedder-local.js";
import { MemoryStore } from "../../src/memory/store.js";
import { systemClock } from "../../src/ports.js";
import { durableSqlPort } from "../../durable-objects/sql-port.js";
import { MemoryBench } from "./bench-core.js";

export class BenchObject extends DurableObject {
  private readonly bench: MemoryBench;

  constructor(ctx: DurableObjectState, env: unknown) {
    super(ctx, env as never);
    const store = new MemoryStore({ sql: durableSqlPort(ctx.storage), embedder: new LocalEmbedder(), index: "embedded", clock: systemClock });
    store.migrate();
    this.bench = new MemoryBench(store);
  }

  async fetch(request: Request): Promise<Response> {
    const url = new URL(request.url);
    const result = await this.bench.step(Number(url.searchParams.get("size")), Number(url.searchParams.get("queries")));
    return Response.json(result);
  }
}

export default {
  async fetch(request: Request, env: { BENCH: DurableObjectNamespace }): Promise<Response> {
    return env.BENCH.get(env.BENCH.idFromName("bench")).fetch(request);
  },
};

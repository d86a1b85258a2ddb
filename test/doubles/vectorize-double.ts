// The Vectorize double as a WorkerEntrypoint, bound as a service binding in the workerd-memory test
// project (where the binding would be a real [[vectorize]] index). Its props choose the index:
// { index, dimensions, metadataIndexes, consistency }. State is per index name, shared by every binding
// to it, as with a real index. The binding's methods mirror VectorizeIndex; flush/snapshot/calls/reset
// are test controls the real service does not have. Answers are RpcResults; env.ts turns them back into the
// real binding's values and throws.
import { WorkerEntrypoint } from "cloudflare:workers";
import { SimVectorize, type SimVectorizeConfig } from "./vectorize-sim.js";
import { settle } from "./rpc-result.js";

type Props = Partial<SimVectorizeConfig> & { index?: string };
const indexes = new Map<string, SimVectorize>();

export class VectorizeDouble extends WorkerEntrypoint {
  private get sim(): SimVectorize {
    const props = ((this.ctx as unknown as { props?: Props }).props ?? {}) as Props;
    const name = props.index ?? "default";
    let sim = indexes.get(name);
    if (!sim) {
      sim = new SimVectorize({
        dimensions: props.dimensions ?? 768,
        metric: props.metric,
        metadataIndexes: props.metadataIndexes,
        consistency: props.consistency,
      });
      indexes.set(name, sim);
    }
    return sim;
  }

  upsert(vectors: unknown) { return settle(() => this.sim.upsert(vectors)); }
  insert(vectors: unknown) { return settle(() => this.sim.insert(vectors)); }
  query(vector: unknown, options?: Parameters<SimVectorize["query"]>[1]) { return settle(() => this.sim.query(vector, options)); }
  deleteByIds(ids: unknown) { return settle(() => this.sim.deleteByIds(ids)); }
  getByIds(ids: string[]) { return settle(() => this.sim.getByIds(ids)); }
  describe() { return settle(() => this.sim.describe()); }

  flush() { return settle(() => this.sim.flush()); }
  snapshot() { return settle(() => this.sim.snapshot()); }
  calls() { return settle(() => structuredClone(this.sim.calls)); }
  reset() {
    return settle(() => {
      const props = ((this.ctx as unknown as { props?: Props }).props ?? {}) as Props;
      indexes.delete(props.index ?? "default");
    });
  }
}

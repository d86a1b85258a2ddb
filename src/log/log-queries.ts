// The log's public questions (GET <base>/log/head, /log/inclusion, /log/consistency), answered from its tables as
// plain JSON: hashes and sizes only, so anyone may ask. Bad parameters get a 400 with a hint; nothing is written.
import type { Signer } from "../protocol/ed25519.js";
import { isHash } from "./merkle.js";
import type { LogStore } from "./log-store.js";
import { signTreeHead } from "./tree-head.js";

export type LogQueryKind = "head" | "inclusion" | "consistency";

/** What the HTTP app hands over (plain data: it crosses the Worker → Durable Object RPC). */
export interface LogQuery {
  kind: LogQueryKind;
  params: Record<string, string>;
}

export interface LogAnswer {
  status: number;
  body: Record<string, unknown>;
}

export interface LogSigner {
  log: LogStore;
  signer: Signer;
  motebitId: string;
  now: () => number;
}

const INT = /^(0|[1-9][0-9]{0,15})$/;

const bad = (error: string, hint: string): LogAnswer => ({ status: 400, body: { error, hint } });

/** A size parameter: a decimal integer within [min, size]. */
function sizeParam(params: Record<string, string>, name: string, min: number, size: number): number | LogAnswer {
  const raw = params[name];
  if (raw === undefined) return bad(`missing ${name}`, `give ${name} as a decimal integer between ${min} and ${size}`);
  if (!INT.test(raw) || !Number.isSafeInteger(Number(raw))) return bad(`${name} must be a decimal integer`, `give ${name} as a decimal integer between ${min} and ${size}`);
  const n = Number(raw);
  if (n < min || n > size) return bad(`${name} ${n} is outside the log`, `the log holds ${size} leaves: give ${name} between ${min} and ${size}`);
  return n;
}

export async function answerLogQuery(q: LogQuery, o: LogSigner): Promise<LogAnswer> {
  const size = o.log.size();
  if (q.kind === "head") {
    const head = await signTreeHead({ treeSize: size, rootHash: o.log.root(size), timestamp: o.now(), motebitId: o.motebitId }, o.signer);
    return { status: 200, body: { ...head } };
  }
  if (q.kind === "inclusion") {
    const leaf = q.params.leaf_hash;
    if (!isHash(leaf)) return bad("leaf_hash must be 64 lowercase hex characters", "leaf_hash is SHA-256(0x00 ‖ canonical JSON of the signed receipt), as lowercase hex");
    const treeSize = sizeParam(q.params, "tree_size", 1, size);
    if (typeof treeSize !== "number") return treeSize;
    const found = o.log.leafByHash(leaf);
    if (found === undefined || found.leafIndex >= treeSize) return { status: 404, body: { error: `no leaf with that hash in the tree of size ${treeSize}` } };
    return { status: 200, body: { leaf_index: found.leafIndex, tree_size: treeSize, audit_path: o.log.inclusion(found.leafIndex, treeSize) } };
  }
  const second = sizeParam(q.params, "second", 0, size);
  if (typeof second !== "number") return second;
  const first = sizeParam(q.params, "first", 0, second);
  if (typeof first !== "number") return first;
  return { status: 200, body: { first, second, consistency_path: first === 0 ? [] : o.log.consistency(first, second) } };
}

// The transparency log as a stranger sees it, the same on both hosts: motebit_task's `_meta["motebit/log"]` proves
// its receipt, and the public (unauthenticated) head and proofs check out with nothing but the RFC 9162 algorithms.
// test/node/log/log-endpoints.test.ts runs it against the Node host's app, test/workerd/edge/log-endpoints.test.ts
// against the real Worker and Durable Object (and a fleet motebit's /m/<name>).
import { describe, expect, it } from "vitest";
import { receiptLeafHash } from "../../src/log/receipt-leaf.js";
import { verifyConsistency, verifyInclusion } from "../../src/log/merkle.js";
import { treeHeadProblem, type TreeHead } from "../../src/log/tree-head.js";
import { stripIdentityTag, verifyReceipt } from "../../src/protocol/index.js";
import { statelessBody, statelessHeaders } from "./stateless-request.js";

export interface LogHost {
  fetch(request: Request): Promise<Response>;
  /** The Authorization header value an MCP call may use. */
  auth: string;
  /** "" for the host's root, "/m/<name>" for a fleet motebit. */
  base: string;
}

const ORIGIN = "http://127.0.0.1";

/** One stateless 2026-07-28 motebit_task call: the receipt and the result's _meta. */
export async function runTask(h: LogHost, prompt: string): Promise<{ receipt: Record<string, unknown>; meta: Record<string, unknown> | undefined }> {
  const params = { name: "motebit_task", arguments: { prompt } };
  const res = await h.fetch(new Request(`${ORIGIN}${h.base}/mcp`, {
    method: "POST",
    headers: { Authorization: h.auth, Accept: "application/json", "Content-Type": "application/json", ...statelessHeaders("tools/call", params) },
    body: JSON.stringify(statelessBody("tools/call", params)),
  }));
  expect(res.status).toBe(200);
  const { result } = (await res.json()) as { result: { content: { text: string }[]; _meta?: Record<string, unknown> } };
  return { receipt: JSON.parse(stripIdentityTag(result.content[0].text)) as Record<string, unknown>, meta: result._meta };
}

export async function getLog(h: LogHost, path: string): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await h.fetch(new Request(`${ORIGIN}${h.base}/log/${path}`));
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

export function describeTransparencyLog(name: string, makeHost: () => Promise<LogHost>): void {
  describe(`the transparency log of receipts (${name})`, () => {
    it("motebit_task's _meta proves its receipt, and the public head, inclusion and consistency proofs verify by RFC 9162", async () => {
      const h = await makeHost();
      const tasks = [];
      for (const prompt of ["echo the first", "echo the second", "echo the third"]) tasks.push(await runTask(h, prompt));
      for (const { receipt, meta } of tasks) {
        expect((await verifyReceipt(receipt)).valid).toBe(true);
        const p = meta?.["motebit/log"] as { leaf_index: number; tree_size: number; root_hash: string; audit_path: string[] };
        expect(p.tree_size).toBe(p.leaf_index + 1);
        expect(verifyInclusion(receiptLeafHash(receipt), p.leaf_index, p.tree_size, p.audit_path, p.root_hash)).toBe(true);
      }
      // Each task's leaf follows the one before: the log grows by one receipt per task.
      const indexes = tasks.map((t) => (t.meta!["motebit/log"] as { leaf_index: number }).leaf_index);
      expect(indexes).toEqual([indexes[0], indexes[0] + 1, indexes[0] + 2]);

      // No Authorization header: the head and proofs are public.
      const head = (await getLog(h, "head")).body as unknown as TreeHead;
      expect(await treeHeadProblem(head)).toBeNull();
      expect(Object.keys(head).sort()).toEqual(["motebit_id", "public_key", "root_hash", "signature", "suite", "timestamp", "tree_size"]);
      expect(head.public_key).toBe(tasks[0].receipt.public_key);
      expect(head.tree_size).toBe(indexes[2] + 1);

      for (const { receipt, meta } of tasks) {
        const leaf = receiptLeafHash(receipt);
        const inc = await getLog(h, `inclusion?leaf_hash=${leaf}&tree_size=${head.tree_size}`);
        expect(inc.status).toBe(200);
        const proof = inc.body as { leaf_index: number; tree_size: number; audit_path: string[] };
        expect(verifyInclusion(leaf, proof.leaf_index, proof.tree_size, proof.audit_path, head.root_hash)).toBe(true);
        // The head the task's proof was made against is a prefix of today's head.
        const p = meta!["motebit/log"] as { tree_size: number; root_hash: string };
        const con = await getLog(h, `consistency?first=${p.tree_size}&second=${head.tree_size}`);
        expect(con.status).toBe(200);
        expect(con.body.first).toBe(p.tree_size);
        expect(verifyConsistency(p.tree_size, head.tree_size, p.root_hash, head.root_hash, con.body.consistency_path as string[])).toBe(true);
      }
    });

    it("refuses malformed or out-of-range questions with a 400 and a hint, and an unknown leaf with a 404", async () => {
      const h = await makeHost();
      const { receipt } = await runTask(h, "echo once");
      const size = ((await getLog(h, "head")).body as { tree_size: number }).tree_size;
      const leaf = receiptLeafHash(receipt);
      for (const q of [
        `inclusion?leaf_hash=${leaf.toUpperCase()}&tree_size=${size}`,
        `inclusion?leaf_hash=${leaf}`,
        `inclusion?leaf_hash=${leaf}&tree_size=${size + 1}`,
        `inclusion?leaf_hash=${leaf}&tree_size=0x1`,
        `consistency?first=2&second=1`,
        `consistency?first=1&second=${size + 1}`,
        `consistency?first=-1&second=1`,
      ]) {
        const r = await getLog(h, q);
        expect(r.status, q).toBe(400);
        expect(r.body.hint, q).toEqual(expect.any(String));
      }
      const unknown = await getLog(h, `inclusion?leaf_hash=${"ab".repeat(32)}&tree_size=${size}`);
      expect(unknown.status).toBe(404);
    });
  });
}

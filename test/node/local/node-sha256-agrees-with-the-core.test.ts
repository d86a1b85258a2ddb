// motebit-local plugs node:crypto's digest into the core's synchronous SHA-256 port: every hash the core takes through
// it (log leaves and nodes, a receipt's leaf, prompt and result digests, static tokens) must come out as in JS.
import { expect, it } from "vitest";
import { nodeSha256Hex } from "../../../local-stdio/src/serve/node-sha256.js";
import { leafHash, nodeHash } from "../../../src/log/merkle.js";
import { receiptLeafHash } from "../../../src/log/receipt-leaf.js";
import { sha256Hex, sha256HexSync, useNativeSha256 } from "../../../src/protocol/index.js";

const texts = ["", "abc", "é€😀", "lone \ud800 surrogate", "x".repeat(10_000)];
const bytes = [new Uint8Array(0), Uint8Array.from({ length: 65 }, (_, i) => i), Uint8Array.from({ length: 9000 }, (_, i) => (i * 31) & 0xff)];
const receipt = { task_id: "t-1", result: "ünïcode ✓", tools_used: ["echo"], signature: "sig", memories_formed: 0 };
const l = "a".repeat(64);
const r = "b".repeat(64);

async function everyHash() {
  return {
    sync: [...texts, ...bytes].map((d) => sha256HexSync(d)),
    async: await Promise.all([...texts, ...bytes].map((d) => sha256Hex(d))),
    leaves: bytes.map((b) => leafHash(b)),
    node: nodeHash(l, r),
    receipt: receiptLeafHash(receipt),
  };
}

it("gives the same digests as the core's JS SHA-256 for text (UTF-8, lone surrogates) and bytes", () => {
  for (const t of texts) expect(nodeSha256Hex(t), JSON.stringify(t.slice(0, 20))).toBe(sha256HexSync(t));
  for (const b of bytes) expect(nodeSha256Hex(b), `${b.length} bytes`).toBe(sha256HexSync(b));
});

it("leaves every log, receipt and token hash unchanged once plugged in", async () => {
  const inJs = await everyHash();
  useNativeSha256(nodeSha256Hex);
  expect(await everyHash()).toEqual(inJs);
});

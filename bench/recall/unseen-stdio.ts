// The unseen set (pairs-unseen.ts) as the owner meets it: the built CLI served over real stdio with its default
// embedder, each memory stored with motebit_remember, each question asked with motebit_recall; prints top-1,
// top-3 and MRR of the right memory among the 40, and the cold `initialize` time of that same process.
//   npx tsx bench/recall/unseen-stdio.ts      (builds local-stdio first; MOTEBIT_EMBEDDER=local for the table alone)
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { UNSEEN_PARAPHRASES } from "./pairs-unseen.js";

const REPO = fileURLToPath(new URL("../..", import.meta.url));
execFileSync(process.execPath, [join(REPO, "local-stdio/scripts/build.mjs")], { stdio: "inherit" });

const dir = mkdtempSync(join(tmpdir(), "motebit-unseen-"));
const env = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith("ANTHROPIC_")) as [string, string][]);
const transport = new StdioClientTransport({ command: process.execPath, args: [join(REPO, "local-stdio/bin/motebit-local.js"), "serve", "--direct", "--data-dir", dir], env, stderr: "pipe" });
let stderr = "";
transport.stderr?.on("data", (c) => (stderr += c));
const client = new Client({ name: "bench-unseen", version: "1" });
const text = async (name: string, args: Record<string, unknown>) => {
  const r = (await client.callTool({ name, arguments: args })) as { content: { text: string }[]; isError?: boolean };
  if (r.isError) throw new Error(`${name}: ${r.content[0]?.text}`);
  return r.content[0].text;
};
try {
  const t0 = performance.now();
  await client.connect(transport);
  const initializeMs = performance.now() - t0;
  for (const p of UNSEEN_PARAPHRASES) await text("motebit_remember", { content: p.memory, sensitivity: "none" });
  let top1 = 0, top3 = 0, rr = 0;
  for (const p of UNSEEN_PARAPHRASES) {
    const out = await text("motebit_recall", { query: p.question, limit: UNSEEN_PARAPHRASES.length });
    // The results, then the identity tag on a line of its own.
    const hits = JSON.parse(out.slice(0, out.lastIndexOf("\n["))) as { content: string }[];
    const rank = hits.findIndex((h) => h.content === p.memory) + 1;
    if (rank === 1) top1++;
    if (rank >= 1 && rank <= 3) top3++;
    if (rank >= 1) rr += 1 / rank;
  }
  const n = UNSEEN_PARAPHRASES.length;
  const embedder = /embedder: (\S+);/.exec(stderr)?.[1] ?? "?";
  console.log(`unseen set over stdio (motebit_remember ×${n}, motebit_recall ×${n}), embedder ${embedder}:`);
  console.log(`  top-1 ${(top1 / n).toFixed(2)}  top-3 ${(top3 / n).toFixed(2)}  MRR ${(rr / n).toFixed(2)}   (target top-1 ≥ 0.75: ${top1 / n >= 0.75 ? "met" : "MISSED"})`);
  console.log(`  spawn → initialize answered: ${initializeMs.toFixed(0)} ms (tsx parent, built CLI child)`);
} finally {
  await client.close();
  rmSync(dir, { recursive: true, force: true });
}

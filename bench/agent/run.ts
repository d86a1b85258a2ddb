// The AI loop's overhead: a task whose scripted, zero-latency model calls two tools (echo, then word_count) and
// answers. "ours" is the whole motebit_task call in AI mode — gate at offer and call time, argument checks, audit
// rows, the per-turn usage row, the signed receipt and the ledger; "raw" is the same model and the same two tool
// handlers driven by the AI SDK's generateText in the same process. The ratio is what motebit adds to the SDK.
// Cost is process CPU time per task (all threads, so WebCrypto's thread pool counts), measured in alternating rounds
// with the best round of each kept (and the median of each round's own difference): on a shared, loaded machine
// wall-clock mostly measures the neighbours.
// Run: npx tsx bench/agent/run.ts [rounds=3]   (bounded: about 3 s per round, plus a warm-up round)
import { loadavg } from "node:os";
import { generateText, jsonSchema, stepCountIs, tool } from "ai";
import { MockLanguageModelV4 } from "ai/test";
import type { LanguageModelV4Content } from "@ai-sdk/provider";
import exampleTools from "../../examples/tools/index.js";
import { Motebit } from "../../src/motebit.js";
import { createSigner, sovereignMotebitId, useNativeSha256, type Signer } from "../../src/protocol/index.js";
import { nodeSigner } from "../../local-stdio/src/serve/node-sign.js";
import { nodeSha256Hex } from "../../local-stdio/src/serve/node-sha256.js";
import { ToolRegistry } from "../../src/tools/registry.js";
import { memorySql } from "../../test/node/helpers/sqlite.js";
import { NO_CLIENT } from "../../src/tools/invoke.js";

const WINDOW_MS = 1_000;
const ROUNDS = Number(process.argv[2] ?? 3);
const SEED = "0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20";
const USAGE = {
  inputTokens: { total: 10, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: undefined, reasoning: undefined },
};

/** A zero-latency model: echo, then word_count, then an answer, over and over. */
function scriptedModel() {
  let n = 0;
  return new MockLanguageModelV4({
    doGenerate: async () => {
      const step = n++ % 3;
      const call = (name: string, input: unknown): LanguageModelV4Content => ({ type: "tool-call", toolCallId: `c${n}`, toolName: name, input: JSON.stringify(input) });
      const content: LanguageModelV4Content[] =
        step === 0 ? [call("echo", { text: "one two three" })] : step === 1 ? [call("word_count", { text: "one two three" })] : [{ type: "text", text: "3 words." }];
      return { content, finishReason: { unified: step < 2 ? "tool-calls" : "stop", raw: undefined }, usage: USAGE, warnings: [] };
    },
  });
}

/** CPU µs and wall µs per call of `op`, run back to back for the window after a short warm-up. */
async function cost(op: () => Promise<unknown>): Promise<{ cpu: number; wall: number }> {
  for (let i = 0; i < 100; i++) await op();
  let n = 0;
  const cpu0 = process.cpuUsage();
  const start = performance.now();
  let now = start;
  while (now - start < WINDOW_MS) {
    for (let i = 0; i < 20; i++) await op();
    n += 20;
    now = performance.now();
  }
  const cpu = process.cpuUsage(cpu0);
  return { cpu: (cpu.user + cpu.system) / n, wall: ((now - start) * 1000) / n };
}

/** A motebit in AI mode over its own in-memory SQLite, signing receipts with `signer`; returns one task's call. */
async function motebitTask(signer: Signer): Promise<() => Promise<void>> {
  const motebit = await Motebit.create({
    sql: memorySql(),
    clock: { now: () => Date.now() },
    signer,
    motebitId: await sovereignMotebitId(signer.publicKeyHex),
    deviceId: "bench",
    tools: ToolRegistry.fromModule(exampleTools),
    llm: { provider: "scripted", modelName: "zero-latency", id: "scripted:zero-latency", model: scriptedModel() },
  });
  const peer = { kind: "peer", callerId: "bench-peer", via: "signed_token", trust: "verified" } as const;
  let id = 0;
  return async () => {
    const r = (await motebit.handleClassified(
      { kind: "request", message: { jsonrpc: "2.0", id: ++id, method: "tools/call", params: { name: "motebit_task", arguments: { prompt: "echo 'one two three' and count its words" } } } },
      { principal: peer },
    )) as { result: { content: { text: string }[] } };
    if (!r.result.content[0].text.includes('"completed"')) throw new Error(`unexpected: ${r.result.content[0].text}`);
  };
}
// motebit-local's digest (node:crypto: the log's leaf and nodes, the prompt and result hashes), as its CLI plugs it in.
useNativeSha256(nodeSha256Hex);
// motebit-local's signer (node:crypto), and WebCrypto's — the edge's, and motebit-local's until 2026-12-02 — beside it.
const ours = await motebitTask(await nodeSigner(SEED));
const oursWebCrypto = await motebitTask(await createSigner(SEED));

const rawModel = scriptedModel();
const handler = (name: string) => exampleTools.find((t) => t.definition.name === name)!;
const rawTools = Object.fromEntries(
  ["echo", "word_count"].map((name) => [
    name,
    tool({
      description: handler(name).definition.description,
      inputSchema: jsonSchema(handler(name).definition.inputSchema as Parameters<typeof jsonSchema>[0]),
      execute: async (args: unknown) => {
        const r = await handler(name).handler(args as Record<string, unknown>, { ...NO_CLIENT, signal: new AbortController().signal });
        return JSON.stringify(r);
      },
    }),
  ]),
);
const raw = async () => {
  const r = await generateText({ model: rawModel, tools: rawTools, prompt: "echo 'one two three' and count its words", stopWhen: stepCountIs(10) });
  if (r.text !== "3 words.") throw new Error(`unexpected: ${r.text}`);
};

const best = (x: { cpu: number; wall: number }, y: { cpu: number; wall: number }) => ({ cpu: Math.min(x.cpu, y.cpu), wall: Math.min(x.wall, y.wall) });
const sides = [
  { label: "raw generateText (same model, same handlers)", op: raw },
  { label: "motebit_task in AI mode (gate, audit, receipt)", op: ours },
  { label: "the same, receipts signed with WebCrypto", op: oursWebCrypto },
];
const bests = sides.map(() => ({ cpu: Infinity, wall: Infinity }));
// Each round's own differences too: every side of a round sees about the same neighbours, so the median of the
// per-round differences is steadier on a loaded machine than the difference of two bests.
const deltas: number[][] = [[], []];
// One unmeasured round of each first: until V8 has optimised every path (thousands of calls), rounds read high.
for (const side of sides) await cost(side.op);
for (let r = 0; r < ROUNDS; r++) {
  const round = [];
  for (const side of sides) round.push(await cost(side.op));
  round.forEach((c, k) => (bests[k] = best(bests[k], c)));
  deltas[0].push(round[1].cpu - round[0].cpu);
  deltas[1].push(round[2].cpu - round[0].cpu);
}
const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)];
const f = (x: number) => `${x.toFixed(0).padStart(6)} µs`;
const plus = (x: number) => `${x >= 0 ? "+" : ""}${x.toFixed(0)}`;
console.log(`AI loop overhead: one task, two tool calls, zero-latency scripted model (best of ${ROUNDS} rounds of ${WINDOW_MS} ms; Node ${process.version})`);
sides.forEach((side, k) => console.log(`  ${side.label.padEnd(48)} cpu ${f(bests[k].cpu)}/task   wall ${f(bests[k].wall)}/task`));
const [rawBest, oursBest, webBest] = bests;
console.log(`  ratio (cpu): ${(oursBest.cpu / rawBest.cpu).toFixed(2)}x the SDK alone, ${plus(oursBest.cpu - rawBest.cpu)} µs/task (goal: at most +300 µs); wall ratio ${(oursBest.wall / rawBest.wall).toFixed(2)}x`);
console.log(`  median of the ${ROUNDS} rounds' own differences (cpu): ${plus(median(deltas[0]))} µs/task (rounds: ${deltas[0].map(plus).join(", ")})`);
console.log(`  with WebCrypto receipts: best ${plus(webBest.cpu - rawBest.cpu)} µs/task, median ${plus(median(deltas[1]))} (rounds: ${deltas[1].map(plus).join(", ")})`);
console.log(`  load average ${loadavg().map((x) => x.toFixed(2)).join(" ")}`);

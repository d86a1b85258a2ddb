// Vectors of two embedders never mix: when the embedder (or its dimension) changes, start-up re-embeds every
// stored memory before recall uses the new index, page by page (resumable), with progress on stderr.
import { afterAll, expect, it } from "vitest";
import type { Embedder } from "../../../src/ports.js";
import { LocalEmbedder } from "../../../src/memory/embedder-local.js";
import { SemanticEmbedder } from "../../../src/memory/embedder-semantic.js";
import { defaultConfig, localSettings } from "../../../local-stdio/src/config-file.js";
import { startLocalMotebit } from "../../../local-stdio/src/local-motebit.js";
import { tempDir } from "./helpers/local-cli.js";

const tmp = tempDir();
afterAll(() => tmp.cleanup());

it("a new embedder re-embeds stored memories at start-up, says so on stderr, and recall then uses only the new vectors", async () => {
  const start = async (embedder: Embedder | undefined, log: string[]) =>
    startLocalMotebit({ identityPath: null, toolsPath: null, dataDir: tmp.dir, config: defaultConfig(), server: localSettings(defaultConfig(), {}, false).server, llm: null, embedder, log: (l) => log.push(l) });
  const first = await start(undefined, []);
  for (const fact of ["The owner's kayak is yellow", "The owner's bike is a Brompton", "The owner's cat is called Miso"]) {
    await first.motebit.memory.remember({ content: fact, sensitivity: "none", provenance: "owner", scope: "owner" });
  }
  first.sql.close();

  const log: string[] = [];
  const second = await start(new LocalEmbedder({ dimensions: 64 }), log);
  try {
    expect(log.filter((l) => l.includes("re-embedding memories with local-ngram-v1-64"))).toEqual([
      "motebit: re-embedding memories with local-ngram-v1-64: 3/3",
    ]);
    const ids = second.sql.all<{ embedder_id: string }>("SELECT DISTINCT embedder_id FROM memory_nodes");
    expect(ids).toEqual([{ embedder_id: "local-ngram-v1-64" }]);
    const hits = await second.motebit.memory.recall({ query: "what colour is the kayak", scopes: ["owner"], limit: 1 });
    expect(hits[0].content).toBe("The owner's kayak is yellow");
  } finally {
    second.sql.close();
  }
  // Same embedder again: nothing to re-embed, nothing said.
  const quiet: string[] = [];
  const third = await start(new LocalEmbedder({ dimensions: 64 }), quiet);
  third.sql.close();
  expect(quiet.some((l) => l.includes("re-embedding"))).toBe(false);
});

/** What the release before the table taught on mails and addresses (v4) stored: 356-dimension vectors under the id local-sif-v3-356. */
function previousSemantic(): Embedder {
  const e = new SemanticEmbedder();
  return { id: "local-sif-v3-356", dimensions: e.dimensions, embed: (texts) => e.embed(texts) };
}

it.each([
  ["lexical local-ngram-v1-256", () => new LocalEmbedder()],
  ["local-sif-v3-356, same dimensions", previousSemantic],
])("a database written with an earlier default (%s) is re-embedded with today's and recalls by meaning", async (_, earlier) => {
  const dir = tempDir();
  try {
    const start = async (embedder: Embedder | undefined, log: string[]) =>
      startLocalMotebit({ identityPath: null, toolsPath: null, dataDir: dir.dir, config: defaultConfig(), server: localSettings(defaultConfig(), {}, false).server, llm: null, embedder, log: (l) => log.push(l) });
    const old = await start(earlier(), []);
    for (const fact of ["I got the flu vaccine in October", "Our luggage was lost at the airport", "The mortgage payment is due on the first of each month"]) {
      await old.motebit.memory.remember({ content: fact, sensitivity: "none", provenance: "owner", scope: "owner" });
    }
    const question = "when was I immunized against influenza?";
    const stored = old.sql.all("SELECT DISTINCT embedder_id FROM memory_nodes");
    expect(stored).toEqual([{ embedder_id: earlier().id }]);
    old.sql.close();

    const log: string[] = [];
    const upgraded = await start(undefined, log);
    try {
      expect(log.filter((l) => l.includes("re-embedding"))).toEqual(["motebit: re-embedding memories with local-sif-v4-356: 3/3"]);
      const hits = await upgraded.motebit.memory.recall({ query: question, scopes: ["owner"], limit: 1 });
      expect(hits[0].content).toBe("I got the flu vaccine in October");
    } finally {
      upgraded.sql.close();
    }
  } finally {
    dir.cleanup();
  }
});

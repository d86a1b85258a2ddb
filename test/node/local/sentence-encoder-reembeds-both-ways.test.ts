// Upgrading to the sentence encoder and going back: a database whose memories the word table embedded (the
// previous release's default) is re-embedded with motebit-local's default (sentence encoder + word table) at its
// first start, with progress on stderr, and then recalls by meaning what the table alone ranked wrong;
// MOTEBIT_EMBEDDER=local re-embeds it the other way. One model load for the file.
import { afterAll, expect, it } from "vitest";
import type { Embedder } from "../../../src/ports.js";
import { defaultConfig, localSettings } from "../../../local-stdio/src/config-file.js";
import { ownerDefaultEmbedder } from "../../../local-stdio/src/encoder/owner-embedder.js";
import { startLocalMotebit } from "../../../local-stdio/src/local-motebit.js";
import { tempDir } from "./helpers/local-cli.js";
import { UNSEEN_PARAPHRASES } from "../../../bench/recall/pairs-unseen.js";

const tmp = tempDir();
afterAll(() => tmp.cleanup());

const start = (embedder: Embedder | undefined, log: string[]) =>
  startLocalMotebit({ identityPath: null, toolsPath: null, dataDir: tmp.dir, config: defaultConfig(), server: localSettings(defaultConfig(), {}, false).server, llm: null, embedder, log: (l) => log.push(l) });

// The unseen set's 40 memories (bench/recall/pairs-unseen.ts); among them the word table alone ranks the
// dentist's wisdom tooth first for this question.
const FACTS = UNSEEN_PARAPHRASES.map((p) => p.memory);
const ANSWER = "I am allergic to penicillin";
const QUESTION = "which antibiotic must I avoid?";
const recallFirst = async (m: Awaited<ReturnType<typeof start>>) =>
  (await m.motebit.memory.recall({ query: QUESTION, scopes: ["owner"], limit: 1 }))[0]?.content;

it("re-embeds the table's memories with the sentence encoder at first start, recalls by meaning, and goes back with MOTEBIT_EMBEDDER=local", async () => {
  const old = await start(undefined, []);
  for (const content of FACTS) await old.motebit.memory.remember({ content, sensitivity: "none", provenance: "owner", scope: "owner" });
  expect(await recallFirst(old)).not.toBe(ANSWER);
  old.sql.close();

  const log: string[] = [];
  const upgraded = await start(ownerDefaultEmbedder((l) => log.push(l)), log);
  try {
    expect(log.filter((l) => l.includes("re-embedding"))).toEqual(["motebit: re-embedding memories with use-lite-512+local-sif-v4-356@0.7: 40/40"]);
    expect(log.some((l) => /^motebit: sentence encoder loaded in \d+ ms/.test(l))).toBe(true);
    expect(upgraded.sql.all("SELECT DISTINCT embedder_id FROM memory_nodes")).toEqual([{ embedder_id: "use-lite-512+local-sif-v4-356@0.7" }]);
    expect(await recallFirst(upgraded)).toBe(ANSWER);
  } finally {
    upgraded.sql.close();
  }

  const back: string[] = [];
  const local = await start(undefined, back);
  try {
    expect(back.filter((l) => l.includes("re-embedding"))).toEqual(["motebit: re-embedding memories with local-sif-v4-356: 40/40"]);
    expect(local.sql.all("SELECT DISTINCT embedder_id FROM memory_nodes")).toEqual([{ embedder_id: "local-sif-v4-356" }]);
  } finally {
    local.sql.close();
  }
});

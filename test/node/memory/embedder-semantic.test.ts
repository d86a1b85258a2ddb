import { beforeAll, describe, expect, it } from "vitest";
import { LocalEmbedder } from "../../../src/memory/embedder-local.js";
import { SemanticEmbedder } from "../../../src/memory/embedder-semantic.js";
import fixture from "../../fixtures/memory/semantic-vectors.json" with { type: "json" };

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i], 0);

// Paraphrases that share no content word with their memory (from the recall bench's tuning set).
const PAIRS: [memory: string, question: string][] = [
  ["I got the flu vaccine in October", "when was I immunized against influenza?"],
  ["The kitchen faucet is leaking and needs a plumber", "who should fix the dripping tap by the sink?"],
  ["We need to exchange dollars for euros", "should we convert currency before Europe?"],
  ["Our luggage was lost at the airport", "what happened to the suitcases at the terminal?"],
  ["Security training is mandatory for all employees", "is the safety course required for staff?"],
];
const DISTRACTORS = [
  "The deploy key rotates every 90 days",
  "My dentist appointment is on the 12th",
  "The kubernetes cluster runs on three nodes",
  "Boarding is at gate 42 for the morning flight",
  "The mortgage payment is due on the first of each month",
];
const MEMORIES = [...PAIRS.map(([m]) => m), ...DISTRACTORS];

/** The memory the question ranks first, by cosine. */
function best(e: { embedOne(t: string): Float32Array }, question: string): string {
  const q = e.embedOne(question);
  const scored = MEMORIES.map((m) => ({ m, s: dot(e.embedOne(m), q) }));
  return scored.sort((a, b) => b.s - a.s)[0].m;
}

describe("SemanticEmbedder", () => {
  const e = new SemanticEmbedder();
  beforeAll(() => e.embed([]));

  it("is deterministic and unit length, with the lexical features after the word-vector part", () => {
    expect(e.id).toBe("local-sif-v4-356");
    expect(e.dimensions).toBe(356);
    const a = e.embedOne("The deploy key rotates every 90 days");
    expect(a.length).toBe(356);
    expect(dot(a, a)).toBeCloseTo(1, 5);
    expect(Array.from(new SemanticEmbedder().embedOne("The deploy key rotates every 90 days"))).toEqual(Array.from(a));
  });

  it("matches the vectors pinned in the fixture (the workerd test checks the same ones)", () => {
    for (const { text, vector } of fixture) expect(Array.from(e.embedOne(text))).toEqual(vector);
  });

  it.each(PAIRS)("finds %j for the paraphrase %j", (memory, question) => {
    expect(best(e, question)).toBe(memory);
  });

  it("ranks paraphrases first where word matching alone does not", () => {
    const lexical = new LocalEmbedder();
    expect(PAIRS.filter(([m, q]) => best(e, q) === m).length).toBe(PAIRS.length);
    expect(PAIRS.filter(([m, q]) => best(lexical, q) === m).length).toBeLessThan(PAIRS.length);
  });

  it("still finds exact names, ids and numbers that no word vector knows", () => {
    expect(best(e, "kubernetes")).toBe("The kubernetes cluster runs on three nodes");
    expect(best(e, "gate 42")).toBe("Boarding is at gate 42 for the morning flight");
  });

  it("gives a text with no known word its wording part alone, still unit length", () => {
    const v = e.embedOne("zxqv-7781");
    expect(Array.from(v.subarray(0, 100)).every((x) => x === 0)).toBe(true);
    expect(dot(v, v)).toBeCloseTo(1, 5);
  });

  it("embed() loads the word table itself and gives what embedOne() gives", async () => {
    const [v] = await new SemanticEmbedder().embed(["The cat's vet appointment is next Tuesday"]);
    expect(Array.from(v)).toEqual(fixture[0].vector);
  });

  it("rejects a semantic share outside 0..1 and names a non-default share in its id", () => {
    expect(() => new SemanticEmbedder({ semanticShare: 1.5 })).toThrow(/semanticShare/);
    expect(new SemanticEmbedder({ semanticShare: 0.5 }).id).toBe("local-sif-v4-356-s0.5");
  });
});

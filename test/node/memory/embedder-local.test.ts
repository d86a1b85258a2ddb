import { describe, expect, it } from "vitest";
import { LocalEmbedder } from "../../../src/memory/embedder-local.js";

const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, i) => s + x * b[i], 0);
const norm = (a: Float32Array) => Math.sqrt(dot(a, a));

describe("LocalEmbedder", () => {
  const e = new LocalEmbedder();

  it("is deterministic, fixed-length and L2-normalised", async () => {
    const [a, b] = await e.embed(["The deploy key rotates every 90 days", "The deploy key rotates every 90 days"]);
    expect(e.dimensions).toBe(256);
    expect(e.id).toBe("local-ngram-v1-256");
    expect(a.length).toBe(256);
    expect(Array.from(a)).toEqual(Array.from(b));
    expect(norm(a)).toBeCloseTo(1, 5);
    // Same vector from a fresh instance: nothing depends on state or on the runtime.
    expect(Array.from(new LocalEmbedder().embedOne("The deploy key rotates every 90 days"))).toEqual(Array.from(a));
  });

  it("puts texts that share words and word forms closer than unrelated ones", async () => {
    const [q, related, inflected, unrelated] = await e.embed([
      "deployment credentials",
      "The deploy key and credentials for the deployment pipeline",
      "credential deploying",
      "My sister's birthday is in March",
    ]);
    expect(dot(q, related)).toBeGreaterThan(0.3);
    expect(dot(q, inflected)).toBeGreaterThan(dot(q, unrelated));
    expect(Math.abs(dot(q, unrelated))).toBeLessThan(0.15);
  });

  it("ignores case and Unicode compatibility forms", () => {
    expect(Array.from(e.embedOne("ＤＥＰＬＯＹ Key"))).toEqual(Array.from(e.embedOne("deploy key")));
  });

  it("embeds text without letters or spaces (punctuation, CJK) into a usable vector", () => {
    expect(norm(e.embedOne("!!!"))).toBeCloseTo(1, 5);
    const cjk = e.embedOne("部署密钥每九十天轮换一次");
    // No spaces: the character trigrams carry the overlap.
    expect(dot(cjk, e.embedOne("部署密钥"))).toBeGreaterThan(0.1);
    expect(dot(cjk, e.embedOne("部署密钥"))).toBeGreaterThan(Math.abs(dot(cjk, e.embedOne("我妹妹的生日在三月"))));
  });

  it("takes other dimensions and says so in its id", () => {
    const e512 = new LocalEmbedder({ dimensions: 512 });
    expect(e512.id).toBe("local-ngram-v1-512");
    expect(e512.embedOne("x").length).toBe(512);
    expect(() => new LocalEmbedder({ dimensions: 3 })).toThrow(/dimensions/);
  });

  it("embeds in time linear in the text's length (8 KiB vs 64 KiB)", () => {
    // Scaling, not a stopwatch: 8× the text must take far less than the 64× of a quadratic embedder,
    // whatever the machine's speed (the threshold sits 3× above linear and 2.7× below quadratic, so a busy
    // neighbour cannot push one across). Best of five batches per size, interleaved, so a GC pause does not decide it.
    const small = "lorem ipsum dolor sit amet ".repeat(300); // 8 KiB
    const large = "lorem ipsum dolor sit amet ".repeat(2_400); // 64 KiB
    const batch = (text: string) => {
      const start = performance.now();
      for (let i = 0; i < 10; i++) e.embedOne(text);
      return (performance.now() - start) / 10;
    };
    let tSmall = Infinity;
    let tLarge = Infinity;
    for (let i = 0; i < 5; i++) {
      tSmall = Math.min(tSmall, batch(small));
      tLarge = Math.min(tLarge, batch(large));
    }
    expect(norm(e.embedOne(large))).toBeCloseTo(1, 5);
    // A 0.5 ms floor keeps timer granularity from inflating the ratio; a quadratic embedder of 8 KiB is nowhere near it.
    expect(tLarge / Math.max(tSmall, 0.5)).toBeLessThan(24);
    expect(tLarge).toBeLessThan(5_000);
  });
});

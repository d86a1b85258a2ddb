import { describe, expect, it } from "vitest";
import { identityTag, stripIdentityTag, withIdentityTag } from "../../../src/protocol/index.js";
import { demo } from "./fixtures.js";

describe("identity tag", () => {
  it("is the id prefix and key prefix in brackets", () => {
    expect(identityTag(demo.sovereign_motebit_id, demo.public_key_hex)).toBe("[motebit:65b60673 key:79b5562e8fe654f9]");
    expect(identityTag(demo.sovereign_motebit_id, null)).toBe("[motebit:65b60673 key:none]");
  });

  it("follows the text after one newline and strips back to the text", () => {
    const tagged = withIdentityTag("result text", demo.sovereign_motebit_id, demo.public_key_hex);
    expect(tagged).toBe("result text\n[motebit:65b60673 key:79b5562e8fe654f9]");
    expect(stripIdentityTag(tagged)).toBe("result text");
    expect(stripIdentityTag(tagged + "  \n")).toBe("result text");
    expect(stripIdentityTag("no tag here")).toBe("no tag here");
    expect(stripIdentityTag(withIdentityTag("", "x", null))).toBe("");
  });
});

describe("stripIdentityTag matches the client regex", () => {
  const CLIENT_RE = /\n?\[motebit:[^\]]*\]\s*$/;
  it("on tricky endings", () => {
    for (const text of [
      "a\n[motebit:x [motebit:y]", "a [motebit:x] [motebit:y]\t\n", "a[motebit:]", "[motebit:]", "a\n\n[motebit:z]", "a]\n[motebit:q]",
      "a\n[motebit:x]b", "a\n[motebit", "a\n[motebit:x\n]", "a\n[motebit:x]\u00a0", "]", "", "\n[motebit:a]]", "[motebit:[motebit:]",
    ]) {
      expect(stripIdentityTag(text), JSON.stringify(text)).toBe(text.replace(CLIENT_RE, ""));
    }
  });

  it("in linear time on hostile text", () => {
    // Scaling, not a stopwatch: 8× the text must take far less than the 64× a quadratic scan would,
    // whatever the machine's speed (the threshold sits 3× above linear and 2.7× below quadratic, so a busy
    // neighbour cannot push one across). Best of five runs per size, interleaved, so a GC pause does not decide it.
    const hostile = (reps: number) => "[motebit:".repeat(reps) + "x";
    const small = hostile(100_000); // 0.9 MB
    const large = hostile(800_000); // 7.2 MB
    const scan = (text: string) => {
      const start = performance.now();
      expect(stripIdentityTag(text)).toBe(text);
      expect(stripIdentityTag(text + "]")).toBe("");
      return performance.now() - start;
    };
    let tSmall = Infinity;
    let tLarge = Infinity;
    for (let i = 0; i < 5; i++) {
      tSmall = Math.min(tSmall, scan(small));
      tLarge = Math.min(tLarge, scan(large));
    }
    // A 1 ms floor keeps timer granularity from inflating the ratio; a quadratic scan of 0.9 MB is nowhere near it.
    expect(tLarge / Math.max(tSmall, 1)).toBeLessThan(24);
    expect(tLarge).toBeLessThan(5_000);
  });
});

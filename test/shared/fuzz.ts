// Settings for the property-based fuzzers (fast-check): a fixed seed so a failure replays, and a small run count
// for `npm test`. `npm run fuzz` raises FUZZ_RUNS; FUZZ_SEED picks another seed (a failure prints its seed and path).
import fc from "fast-check";

/** `base` runs by default, or FUZZ_RUNS (scaled by base / 100) when set. */
export function fuzzParams(base: number, env: { FUZZ_RUNS?: string; FUZZ_SEED?: string } = readEnv()): fc.Parameters<unknown> {
  const runs = Number(env.FUZZ_RUNS);
  const seed = Number(env.FUZZ_SEED);
  return {
    seed: Number.isSafeInteger(seed) && env.FUZZ_SEED ? seed : 0x5eed,
    numRuns: Number.isSafeInteger(runs) && runs > 0 ? Math.max(1, Math.round((runs * base) / 100)) : base,
    // A run that takes this long is a hang, and a failure.
    timeout: 10_000,
  };
}

/** The vitest timeout for one fuzz test: the default for `npm test`; for a long run, 30 ms per FUZZ_RUNS (ten minutes at least). */
export function fuzzTimeoutMs(env: { FUZZ_RUNS?: string } = readEnv()): number | undefined {
  const runs = Number(env.FUZZ_RUNS);
  return env.FUZZ_RUNS ? Math.max(600_000, (Number.isFinite(runs) ? runs : 0) * 30) : undefined;
}

function readEnv(): { FUZZ_RUNS?: string; FUZZ_SEED?: string } {
  return typeof process === "undefined" ? {} : { FUZZ_RUNS: process.env.FUZZ_RUNS, FUZZ_SEED: process.env.FUZZ_SEED };
}

/** Printable ASCII: what a header value can hold on the wire. */
export const headerValue = (maxLength = 200) =>
  fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength });

/** Replaces one character of `s` at a generated position with a generated one (never the same one). */
export const mutation = (s: string) =>
  fc.tuple(fc.nat({ max: s.length - 1 }), fc.string({ minLength: 1, maxLength: 1, unit: "binary" })).map(([i, c]) => {
    const replacement = c === s[i] ? String.fromCharCode((s.charCodeAt(i) + 1) % 0x10000) : c;
    return s.slice(0, i) + replacement + s.slice(i + 1);
  });

/** Nested one-element arrays `depth` deep, built without recursion. */
function nested(depth: number): unknown {
  let v: unknown = 0;
  for (let i = 0; i < depth; i++) v = [v];
  return v;
}

/**
 * Values a hostile client sends where a string or number is expected: objects whose toString / valueOf are not
 * functions (String(v) throws on them), `__proto__` keys (own properties after JSON.parse), and huge and deep
 * values (within the 1 MiB body cap). All survive JSON, so they reach the server as sent.
 */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom<unknown>(
    { toString: 1 },
    { valueOf: {}, toString: {} },
    { toString: "x", valueOf: "y", toJSON: 1 },
    JSON.parse('{"__proto__": {"polluted": true, "toString": 1}}'),
    JSON.parse('{"__proto__": null, "constructor": {"prototype": {"polluted": true}}}'),
    [{ toString: 1 }],
    "x".repeat(300_000),
    Array.from({ length: 20_000 }, (_, i) => i),
    nested(3_000),
    1e308,
    -0,
    "",
    "\u0000\ud800",
  ),
  fc.jsonValue({ maxDepth: 2 }),
);

/** An object with hostile values under known and random keys, `__proto__` included. */
export const hostileObject: fc.Arbitrary<Record<string, unknown>> = fc
  .dictionary(fc.oneof(fc.constantFrom("__proto__", "constructor", "toString", "valueOf", "name", "text", "prompt", "query", "content"), fc.string({ maxLength: 8 })), hostileValue, { maxKeys: 4 })
  .map((d) => JSON.parse(JSON.stringify(d)) as Record<string, unknown>);

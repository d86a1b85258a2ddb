// The identity file's YAML subset (src/protocol/yaml-subset.ts) read side by side with a real YAML parser (the
// `yaml` package, YAML 1.2 core schema) on generated input: what the subset emits, both read back as the value
// emitted; and whatever the subset accepts in the reading-only forms (plain scalars, comments, flow collections),
// it reads as YAML does. The subset stays hand-written because signing is over its exact bytes.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parse as parseYaml } from "yaml";
import { emitIdentityYaml, type IdentityDoc } from "../../../src/protocol/identity-file.js";
import { emitYamlSubset, parseYamlSubset, type YamlValue } from "../../../src/protocol/yaml-subset.js";

const RUNS = Number(process.env.FUZZ_RUNS ?? 300);
const yaml = (text: string) => parseYaml(text, { schema: "core", uniqueKeys: true, strict: true });

// -0 is emitted as 0 (JSON), as every JSON writer does; the comparisons below are about YAML, not that.
const text = fc.string({ unit: "grapheme", maxLength: 24 });
const finite = fc.oneof(fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true })).map((n) => (Object.is(n, -0) ? 0 : n));
const hex = (n: number) => fc.string({ unit: fc.constantFrom(..."0123456789abcdef"), minLength: n, maxLength: n });
const iso = fc.date({ min: new Date("2000-01-01"), max: new Date("2100-01-01"), noInvalidDate: true }).map((d) => d.toISOString());

const identityDoc: fc.Arbitrary<IdentityDoc> = fc.record(
  {
    spec: fc.constant("motebit/identity@1.0" as const),
    motebit_id: fc.uuid(),
    created_at: iso,
    owner_id: text,
    type: fc.constantFrom("personal" as const, "service" as const, "collaborative" as const),
    service_name: text,
    service_description: text,
    service_url: text,
    capabilities: fc.array(text, { maxLength: 4 }),
    terms_url: text,
    identity: fc.record({ algorithm: fc.constant("Ed25519" as const), public_key: hex(64) }),
    governance: fc.record({ trust_mode: text, max_risk_auto: text, require_approval_above: text, deny_above: text, operator_mode: fc.boolean() }),
    privacy: fc.record({
      default_sensitivity: text,
      retention_days: fc.record({ none: finite, personal: finite, medical: finite, financial: finite, secret: finite }),
      fail_closed: fc.boolean(),
    }),
    memory: fc.record({ half_life_days: finite, confidence_threshold: finite, per_turn_limit: finite }),
    devices: fc.array(fc.record({ device_id: text, name: text, public_key: hex(64), registered_at: iso }), { maxLength: 3 }),
  },
  { requiredKeys: ["spec", "motebit_id", "created_at", "owner_id", "identity", "governance", "privacy", "memory", "devices"] },
);

const { value: anyValue } = fc.letrec<{ value: YamlValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    text,
    finite,
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(text, tie("value"), { maxKeys: 4 }),
  ),
}));
const anyMap = fc.dictionary(text, anyValue, { maxKeys: 6 });

describe("the YAML subset beside the yaml package", () => {
  it("a generated identity file's YAML reads back as the document, in both", () => {
    fc.assert(
      fc.property(identityDoc, (doc) => {
        const emitted = emitIdentityYaml(doc);
        const plain = JSON.parse(JSON.stringify(doc));
        expect(parseYamlSubset(emitted)).toEqual(plain);
        expect(yaml(emitted)).toEqual(plain);
      }),
      { numRuns: RUNS },
    );
  });

  it("any mapping the subset emits (any keys, nesting, lists of maps) reads back the same in both", () => {
    fc.assert(
      fc.property(anyMap, (map) => {
        const emitted = emitYamlSubset(map);
        expect(parseYamlSubset(emitted)).toEqual(map);
        expect(yaml(emitted) ?? {}).toEqual(map);
      }),
      { numRuns: RUNS },
    );
  });

  // The forms only a hand-edited file has: plain scalars, comments, JSON flow collections.
  const token = fc.oneof(
    fc.constantFrom(
      "true", "True", "TRUE", "false", "False", "null", "Null", "NULL", "~", "0", "12", "-3", "+7", "3.25", ".5", "1e3", "-2.5E-3",
      "007", "0x1F", "0o17", "yes", "no", "on", "off", "y", "n", "hello world", "a-b", "2026-12-01", "12:30", "1_000", "[]", "{}",
      "[1, \"a\", null]", "{\"k\": [true]}", "\"quoted # not a comment\"", "plain # a comment", "x#y", "-", "- a", "'single'",
    ),
    fc.string({ unit: fc.constantFrom(..."aZ09 .-+_#:~[]{}\"'"), minLength: 1, maxLength: 8 }),
  );
  const handWritten = fc.array(fc.tuple(fc.stringMatching(/^[a-z_][a-z0-9_]{0,6}$/), token), { minLength: 1, maxLength: 5 })
    .map((pairs) => {
      const seen = new Set<string>();
      return pairs.filter(([k]) => !seen.has(k) && seen.add(k));
    });

  it("whatever hand-written line the subset accepts, it reads as YAML reads it", () => {
    fc.assert(
      fc.property(handWritten, (pairs) => {
        const source = ["# a hand-edited file", ...pairs.map(([k, v]) => `${k}: ${v}`)].join("\n");
        let ours: unknown;
        try {
          ours = parseYamlSubset(source);
        } catch {
          return; // refused with a clear error: nothing to compare
        }
        expect(ours).toEqual(yaml(source));
      }),
      { numRuns: RUNS * 3 },
    );
  });
});

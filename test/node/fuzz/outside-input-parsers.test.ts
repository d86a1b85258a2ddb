// Property-based fuzzing of every parser that takes outside input: whatever it is given, it answers with a
// verdict (a clear refusal or a correct result) and never throws; a changed byte never verifies.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  createIdentityDoc,
  createSigner,
  mintBearerToken,
  parseBearerToken,
  signDelegationToken,
  signIdentityFile,
  signReceipt,
  sovereignMotebitId,
  verifyBearerToken,
  verifyDelegationToken,
  verifyIdentityFile,
  verifyReceipt,
} from "../../../src/protocol/index.js";
import { systemClock } from "../../../src/ports.js";
import { authenticate } from "../../../src/server/auth.js";
import { dispatchTokenVerifier } from "../../../src/host/dispatch-token.js";
import { nestsDeeperThan } from "../../../src/mcp/json-depth.js";
import { parseMessage } from "../../../src/server/mcp-request.js";
import { fuzzParams, fuzzTimeoutMs, mutation } from "../../shared/fuzz.js";
import { memorySql } from "../helpers/sqlite.js";
import { OTHER_SEED, TEST_SEED } from "../helpers/motebit.js";
import { parseStaticTokens } from "../../../src/settings/static-tokens.js";

const self = await createSigner(TEST_SEED);
const other = await createSigner(OTHER_SEED);
const selfId = await sovereignMotebitId(self.publicKeyHex);
const otherId = await sovereignMotebitId(other.publicKeyHex);
const identity = { motebitId: selfId, publicKeyHex: self.publicKeyHex };
const settings = {
  staticTokens: parseStaticTokens({ static: "static-secret-token" }, "test"),
  knownCallers: new Map([[otherId, { publicKeyHex: other.publicKeyHex, trust: "verified" as const }]]),
  relayTrust: other.publicKeyHex,
  relayId: null,
};

/** Anything a caller could put in a string field: text, JSON, near-tokens. */
const anyText = fc.oneof(fc.string({ unit: "binary", maxLength: 300 }), fc.json({ maxDepth: 4 }), fc.base64String({ maxLength: 200 }));

describe("fuzz: bearer and dispatch tokens", () => {
  it("parseBearerToken and authenticate answer every Authorization value without throwing", async () => {
    await fc.assert(
      fc.asyncProperty(anyText, async (s) => {
        const parsed = parseBearerToken(s);
        expect(typeof parsed.ok).toBe("boolean");
        for (const header of [s, `Bearer ${s}`, `Bearer motebit:${s}`]) {
          const r = await authenticate(header, settings, identity, Date.now());
          if (r.ok) expect(header).toBe("Bearer static-secret-token");
          else expect(r.status).toBe(401);
        }
      }),
      fuzzParams(200),
    );
  }, fuzzTimeoutMs());

  it("a signed token with any one character changed never verifies", async () => {
    const token = await mintBearerToken({ mid: otherId, did: "d", aud: "mcp:call", sub: selfId, ttlMs: 60_000 }, other);
    expect((await verifyBearerToken(token, other.publicKeyHex)).ok).toBe(true);
    await fc.assert(
      fc.asyncProperty(mutation(token), async (t) => {
        const v = await verifyBearerToken(t, other.publicKeyHex);
        // base64url's last character can carry unused bits: a change there may decode to the same bytes.
        if (v.ok) expect(parseBearerToken(t)).toEqual(parseBearerToken(token));
      }),
      fuzzParams(200),
    );
  }, fuzzTimeoutMs());

  it("the dispatch_token check refuses anything but a fresh relay-signed task:dispatch token, with a reason", async () => {
    const verify = dispatchTokenVerifier({ sql: memorySql(), clock: systemClock, settings, identity });
    await fc.assert(
      fc.asyncProperty(anyText, async (s) => {
        const r = await verify(s, { kind: "peer", callerId: "relay:r", via: "relay", trust: "verified" });
        expect(r.ok).toBe(false);
        if (!r.ok) expect(r.reason).toMatch(/^[a-z_]+$/);
      }),
      fuzzParams(200),
    );
  }, fuzzTimeoutMs());
});

describe("fuzz: receipts and delegation tokens", () => {
  it("verifyReceipt answers any JSON value, and a receipt with one field changed never verifies", async () => {
    const receipt = await signReceipt(
      {
        task_id: "t-1", motebit_id: selfId, device_id: "d", submitted_at: 1, completed_at: 2, status: "completed", result: "ok",
        tools_used: ["echo"], memories_formed: 0, prompt_hash: "a".repeat(64), result_hash: "b".repeat(64), invocation_origin: "agent-to-agent",
      },
      self,
    );
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 5 }), async (v) => {
        expect((await verifyReceipt(v)).valid).toBe(false);
      }),
      fuzzParams(200),
    );
    const keys = Object.keys(receipt) as (keyof typeof receipt)[];
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...keys), fc.jsonValue({ maxDepth: 3 }), async (key, value) => {
        fc.pre(JSON.stringify(value) !== JSON.stringify(receipt[key]));
        expect((await verifyReceipt({ ...receipt, [key]: value })).valid).toBe(false);
      }),
      fuzzParams(200),
    );
  }, fuzzTimeoutMs());

  it("verifyDelegationToken refuses any text and any one-character change of a valid token", async () => {
    const now = Date.now();
    const token = JSON.stringify(
      await signDelegationToken(
        {
          delegator_id: otherId, delegator_public_key: other.publicKeyHex, delegate_id: selfId, delegate_public_key: self.publicKeyHex,
          scope: "echo", issued_at: now, expires_at: now + 3_600_000,
        },
        other,
      ),
    );
    expect((await verifyDelegationToken(token, { delegateId: selfId })).ok).toBe(true);
    await fc.assert(
      fc.asyncProperty(fc.oneof(anyText, mutation(token)), async (s) => {
        const v = await verifyDelegationToken(s, { delegateId: selfId, requiredCapabilities: ["echo"] });
        if (v.ok) expect(JSON.parse(s)).toEqual(JSON.parse(token));
        else expect(v.error).toMatch(/^Denied: /);
      }),
      fuzzParams(200),
    );
  }, fuzzTimeoutMs());
});

describe("fuzz: identity files", () => {
  it("verifyIdentityFile answers any text, and a change inside the signed frontmatter never verifies", async () => {
    const doc = await createIdentityDoc({ publicKeyHex: self.publicKeyHex, type: "service", name: "fuzz", now: new Date(1_767_225_600_000) });
    const text = await signIdentityFile(doc, self);
    const frontmatterEnd = text.indexOf("\n---", 4);
    expect((await verifyIdentityFile(text)).valid).toBe(true);
    await fc.assert(
      fc.asyncProperty(fc.oneof(anyText, mutation(text)), async (s) => {
        const v = await verifyIdentityFile(s);
        expect(typeof v.valid).toBe("boolean");
        if (v.valid) expect(s.slice(0, frontmatterEnd)).toBe(text.slice(0, frontmatterEnd));
        else expect(v.errors.length).toBeGreaterThan(0);
      }),
      fuzzParams(300),
    );
  }, fuzzTimeoutMs());
});

describe("fuzz: JSON-RPC bodies", () => {
  const depthOf = (v: unknown): number =>
    typeof v === "object" && v !== null ? 1 + Math.max(0, ...Object.values(v).map(depthOf)) : 0;

  it("the raw-text depth check agrees with the parsed value's depth", () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 12 }), fc.integer({ min: 0, max: 12 }), (v, max) => {
        expect(nestsDeeperThan(JSON.stringify(v), max)).toBe(depthOf(v) > max);
      }),
      fuzzParams(300),
    );
  }, fuzzTimeoutMs());

  it("parseMessage turns any bytes into a message or a 4xx JSON-RPC error, never a throw", async () => {
    const bodies = fc.oneof(
      fc.uint8Array({ maxLength: 300 }),
      anyText.map((s) => new TextEncoder().encode(s)),
      fc.record({ jsonrpc: fc.constantFrom("2.0", "1.0", 2), id: fc.jsonValue({ maxDepth: 1 }), method: anyText, params: fc.jsonValue({ maxDepth: 4 }) })
        .map((m) => new TextEncoder().encode(JSON.stringify(m))),
    );
    await fc.assert(
      fc.asyncProperty(bodies, async (bytes) => {
        const r = parseMessage(bytes);
        if (!r.ok) {
          expect(r.response.status).toBe(400);
          const body = (await r.response.json()) as { error: { code: number; message: string } };
          expect([-32700, -32600]).toContain(body.error.code);
        }
      }),
      fuzzParams(300),
    );
  }, fuzzTimeoutMs());
});

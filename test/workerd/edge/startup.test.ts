// /health is public; a server that cannot start answers every request with 503, the reason and where to fix it.
import { createExecutionContext, env, runInDurableObject, SELF, waitOnExecutionContext } from "cloudflare:test";
import { describe, expect, it, onTestFinished, vi } from "vitest";
import { createIdentityDoc, createSigner, signIdentityFile } from "../../../src/protocol/index.js";
import { STARTUP_FAILURE_HINT } from "../../../src/server/responses.js";
import type { EdgeEnv } from "../../../worker/env.js";
import worker, { MotebitObject } from "../../../worker/index.js";
import { BASE, INITIALIZE, keys, mcpRequest, rpc, SERVER_ID, STATIC_PEER } from "./helpers.js";

async function identityFileSignedBy(seedHex: string): Promise<string> {
  const signer = await createSigner(seedHex);
  const doc = await createIdentityDoc({ publicKeyHex: signer.publicKeyHex, type: "service", name: "edge-test", now: new Date(1_767_225_600_000) });
  return signIdentityFile(doc, signer);
}

/** A fresh MotebitObject over the storage of object `name`, started with `overrides` on top of the test env. */
function withObject<R>(name: string, overrides: Partial<EdgeEnv>, f: (o: MotebitObject) => Promise<R>): Promise<R> {
  const stub = env.MOTEBIT.get(env.MOTEBIT.idFromName(name));
  return runInDurableObject(stub, (_live, state) => f(new MotebitObject(state, { ...env, ...overrides } as EdgeEnv)));
}

/** The start-up error log, captured (and so pinned) instead of printed into a passing run. */
function captureErrorLog(): string[] {
  const lines: string[] = [];
  const spy = vi.spyOn(console, "error").mockImplementation((...a: unknown[]) => void lines.push(a.map(String).join(" ")));
  onTestFinished(() => spy.mockRestore());
  return lines;
}

describe("start-up", () => {
  it("/health is public and names the motebit", async () => {
    const res = await SELF.fetch(`${BASE}/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok", motebit_id: SERVER_ID });
  });

  it("malformed MOTEBIT_KNOWN_CALLERS: every request, /health included, is a 503 with the reason", async () => {
    const log = captureErrorLog();
    const broken = { ...env, MOTEBIT_KNOWN_CALLERS: "{not json" };
    for (const req of [new Request(`${BASE}/health`), mcpRequest(INITIALIZE)]) {
      const ctx = createExecutionContext();
      const res = await worker.fetch(req, broken, ctx);
      await waitOnExecutionContext(ctx);
      expect(res.status).toBe(503);
      const body = (await res.json()) as { error: string; hint: string };
      expect(body.error).toMatch(/^MOTEBIT_KNOWN_CALLERS is not valid JSON/);
      expect(body.hint).toMatch(/restart the server \(npm start reads \.dev\.vars only when it starts/);
    }
    expect(log.length).toBeGreaterThan(0);
    for (const line of log) expect(line).toMatch(/^motebit cannot start: MOTEBIT_KNOWN_CALLERS is not valid JSON/);
  });

  it("an identity file signed by another key: the object refuses to start and says why", async () => {
    const log = captureErrorLog();
    const text = await identityFileSignedBy(keys.known_caller.seed_hex);
    const expected =
      `MOTEBIT_IDENTITY is signed by key ${keys.known_caller.public_key_hex.slice(0, 16)}…, but MOTEBIT_PRIVATE_KEY is key ` +
      `${keys.server.public_key_hex.slice(0, 16)}…: set MOTEBIT_PRIVATE_KEY to the seed that signed the identity file`;
    await withObject("bad-identity", { MOTEBIT_IDENTITY: text }, async (o) => {
      expect(await o.identity()).toEqual({ ok: false, error: expected });
      const res = await o.handleMcp({ principal: STATIC_PEER, jti: null, sessionId: null, method: "POST", mode: "json", kind: "request", message: rpc("ping") });
      expect(res.status).toBe(503);
      expect(await res.json()).toEqual({ error: expected, hint: STARTUP_FAILURE_HINT });
    });
    expect(log).toContain(`motebit cannot start: ${expected}`);
  });

  it("an identity file signed by MOTEBIT_PRIVATE_KEY names the motebit", async () => {
    const text = await identityFileSignedBy(keys.server.seed_hex);
    await withObject("good-identity", { MOTEBIT_IDENTITY: text }, async (o) => {
      expect(await o.identity()).toEqual({ ok: true, motebitId: SERVER_ID, publicKeyHex: keys.server.public_key_hex });
    });
  });

  it("with no key configured the object generates one and keeps it across restarts", async () => {
    const first = await withObject("generated-key", { MOTEBIT_PRIVATE_KEY: undefined }, (o) => o.identity());
    const again = await withObject("generated-key", { MOTEBIT_PRIVATE_KEY: undefined }, (o) => o.identity());
    expect(first.ok).toBe(true);
    expect(again).toEqual(first);
    expect(first).not.toMatchObject({ publicKeyHex: keys.server.public_key_hex });
  });
});

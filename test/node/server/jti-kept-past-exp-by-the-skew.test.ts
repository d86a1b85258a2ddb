// A used jti is remembered until exp + the clock skew, not until exp: within the skew past exp the token itself is
// still accepted, so forgetting its jti at exp would let it be replayed for that minute.
import { afterEach, expect, it, vi } from "vitest";
import { createSigner, mintBearerToken } from "../../../src/protocol/index.js";
import { TOKEN_SKEW_MS } from "../../../src/callers/signed-token.js";
import keys from "../../fixtures/edge/keys.json";
import { nodeApp } from "../helpers/node-app.js";

const INITIALIZE = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } };

// The app reads Date.now() for the token's times and the replay store reads the host's clock (systemClock): both move.
afterEach(() => vi.useRealTimers());

it("a token replayed after its exp but within the skew is refused as a replay; after the skew, as expired", async () => {
  vi.useFakeTimers({ toFake: ["Date"], now: Date.now() });
  const { app } = await nodeApp();
  const ttlMs = 60_000;
  const token = await mintBearerToken(
    { mid: keys.known_caller.sovereign_motebit_id, did: "d", aud: "mcp:call", sub: keys.server.sovereign_motebit_id, iat: Date.now(), ttlMs },
    await createSigner(keys.known_caller.seed_hex),
  );
  const send = async () => {
    const res = await app.fetch(
      new Request("http://node.test/mcp", {
        method: "POST",
        headers: { authorization: `Bearer motebit:${token}`, "content-type": "application/json", accept: "application/json, text/event-stream" },
        body: JSON.stringify(INITIALIZE),
      }),
    );
    return { status: res.status, body: res.status === 200 ? null : await res.json() };
  };

  expect(await send()).toEqual({ status: 200, body: null });
  vi.setSystemTime(Date.now() + ttlMs + TOKEN_SKEW_MS / 2);
  expect(await send()).toEqual({ status: 401, body: expect.objectContaining({ error: "invalid motebit token", reason: "jti_replayed" }) });
  vi.setSystemTime(Date.now() + TOKEN_SKEW_MS / 2 + 1);
  expect(await send()).toEqual({ status: 401, body: expect.objectContaining({ error: "invalid motebit token", reason: "expired" }) });
});

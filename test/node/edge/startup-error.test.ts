// Black box: a local edge whose identity file does not match its key answers every request with 503 and says why.
import { afterAll, beforeAll, expect, it } from "vitest";
import { createIdentityDoc, createSigner, signIdentityFile } from "../../../src/protocol/index.js";
import { STARTUP_FAILURE_HINT } from "../../../src/server/responses.js";
import keys from "../../fixtures/edge/keys.json";
import { startLocalEdge, type LocalEdge } from "./local-edge.js";

const EXPECTED =
  `MOTEBIT_IDENTITY is signed by key ${keys.known_caller.public_key_hex.slice(0, 16)}…, but MOTEBIT_PRIVATE_KEY is key ` +
  `${keys.server.public_key_hex.slice(0, 16)}…: set MOTEBIT_PRIVATE_KEY to the seed that signed the identity file`;
let edge: LocalEdge;

beforeAll(async () => {
  const other = await createSigner(keys.known_caller.seed_hex);
  const doc = await createIdentityDoc({ publicKeyHex: other.publicKeyHex, type: "service", name: "mismatch", now: new Date(1_767_225_600_000) });
  edge = await startLocalEdge({
    MOTEBIT_PRIVATE_KEY: keys.server.seed_hex,
    MOTEBIT_IDENTITY: await signIdentityFile(doc, other),
    MOTEBIT_AUTH_TOKEN: keys.auth_token,
  });
}, 90_000);

afterAll(async () => {
  await edge?.stop();
});

it("a mismatching identity file: /health and /mcp are 503 with the reason and the fix, and the reason is logged", async () => {
  const health = await fetch(`${edge.url}/health`);
  expect(health.status).toBe(503);
  expect(await health.json()).toEqual({ error: EXPECTED, hint: STARTUP_FAILURE_HINT });
  const mcp = await fetch(`${edge.url}/mcp`, {
    method: "POST",
    headers: { Authorization: `Bearer ${keys.auth_token}`, "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" }),
  });
  expect(mcp.status).toBe(503);
  expect(await mcp.json()).toEqual({ error: EXPECTED, hint: STARTUP_FAILURE_HINT });
  await expect.poll(() => edge.output(), { timeout: 5_000 }).toContain(`motebit cannot start: ${EXPECTED}`);
});

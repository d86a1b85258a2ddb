// Black box: the real local edge (wrangler dev --local, workerd) answers an oversized POST to each OAuth endpoint
// with 413 and a JSON body, whether the size is declared or streamed, and keeps serving. Before the cap, a 200 KB
// JSON POST to /token made wrangler dev exit.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import keys from "../../fixtures/edge/keys.json";
import { startLocalEdge, type LocalEdge } from "./local-edge.js";
import { OVERSIZED_OAUTH_BODIES, streamOf } from "../../shared/oauth-big-bodies.js";

let edge: LocalEdge;

beforeAll(async () => {
  edge = await startLocalEdge({ MOTEBIT_PRIVATE_KEY: keys.server.seed_hex, MOTEBIT_AUTH_TOKEN: keys.auth_token });
}, 90_000);

afterAll(async () => {
  await edge?.stop();
});

const CASES = OVERSIZED_OAUTH_BODIES;

async function healthy(): Promise<number> {
  return (await fetch(`${edge.url}/health`, { signal: AbortSignal.timeout(5_000) })).status;
}

describe("oversized OAuth bodies at the local edge", () => {
  it.each(CASES)("$path: $size bytes declared → 413, and the edge still answers", async ({ path, size, type }) => {
    const res = await fetch(`${edge.url}${path}`, { method: "POST", headers: { "Content-Type": type }, body: "x".repeat(size), signal: AbortSignal.timeout(10_000) });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ error: "invalid_request", hint: expect.any(String) });
    expect(await healthy()).toBe(200);
  });

  it.each(CASES)("$path: $size bytes streamed without a length → 413, and the edge still answers", async ({ path, size, type }) => {
    const res = await fetch(`${edge.url}${path}`, {
      method: "POST",
      headers: { "Content-Type": type },
      body: streamOf(size),
      duplex: "half",
      signal: AbortSignal.timeout(10_000),
    } as RequestInit);
    expect(res.status).toBe(413);
    await res.body?.cancel();
    expect(await healthy()).toBe(200);
  });
});

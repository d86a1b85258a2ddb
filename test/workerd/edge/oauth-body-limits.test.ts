// The OAuth endpoints take small bodies: a larger one is refused with 413 and a JSON body, by its declared length
// or as it streams, on the deployment's motebit and on a fleet motebit alike; the endpoint keeps working after.
import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { BASE } from "./helpers.js";
import { createMotebit } from "../fleet/helpers.js";
import { OVERSIZED_OAUTH_BODIES, streamOf } from "../../shared/oauth-big-bodies.js";

const CASES = OVERSIZED_OAUTH_BODIES;

beforeAll(async () => {
  await createMotebit("oa-limits");
});

describe.each([["the deployment's motebit", BASE], ["a fleet motebit", `${BASE}/m/oa-limits`]])("OAuth body limits on %s", (_, base) => {
  it.each(CASES)("$path: $size bytes declared → 413 with a JSON body", async ({ path, size, type }) => {
    const res = await SELF.fetch(`${base}${path}`, { method: "POST", headers: { "Content-Type": type }, body: "x".repeat(size) });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ error: "invalid_request", hint: expect.any(String) });
  });

  it.each(CASES)("$path: $size bytes streamed without a length → 413", async ({ path, size, type }) => {
    const res = await SELF.fetch(`${base}${path}`, { method: "POST", headers: { "Content-Type": type }, body: streamOf(size) });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ error: "invalid_request" });
  });

  it("a registration within the cap still succeeds after them", async () => {
    const res = await SELF.fetch(`${base}/register`, { method: "POST", body: JSON.stringify({ client_name: "after", redirect_uris: ["https://claude.ai/api/mcp/auth_callback"] }) });
    expect(res.status).toBe(201);
  });
});

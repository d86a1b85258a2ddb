// DPoP for a fleet motebit (/m/<name>): the Worker checks the proof against that motebit's own /mcp, its object
// keeps the proof's single use and its own nonces; oauth4webapi signs in, calls and refreshes with proofs.
import { SELF } from "cloudflare:test";
import { beforeAll, expect, it } from "vitest";
import { BASE } from "../edge/helpers.js";
import { dpopInitialize, dpopRefresh, dpopSignIn } from "../../shared/dpop-client.js";
import { byOperator, createMotebit } from "./helpers.js";

beforeAll(async () => {
  await createMotebit("dp-alpha");
});

it("a fleet motebit's DPoP sign-in, call and refresh, each proved by the client's key", async () => {
  const s = await dpopSignIn(`${BASE}/m/dp-alpha`, (url, init) => SELF.fetch(url, init), byOperator("dp-alpha"));
  expect(s.resource).toBe(`${BASE}/m/dp-alpha/mcp`);
  expect(s.tokens.token_type.toLowerCase()).toBe("dpop");
  expect((await dpopInitialize(s)).status).toBe(200);
  const next = await dpopRefresh(s);
  expect((await dpopInitialize(s, next.access_token)).status).toBe(200);
});

// Without MOTEBIT_FLEET_TOKEN there is no fleet: every /m/… and /fleet/… request is 404, the operator's token is
// nothing, and the deployment's own motebit answers /health and /mcp as it always has.
import { createExecutionContext, env } from "cloudflare:test";
import { expect, it } from "vitest";
import worker from "../../../worker/index.js";
import type { EdgeEnv } from "../../../worker/env.js";
import { BASE, INITIALIZE, mcpRequest, SERVER_ID } from "../edge/helpers.js";
import { FLEET_TOKEN } from "./helpers.js";

const withoutFleet = { ...(env as unknown as EdgeEnv), MOTEBIT_FLEET_TOKEN: undefined } as EdgeEnv;
const send = (request: Request) => worker.fetch(request, withoutFleet, createExecutionContext());

it("every fleet route is 404, whatever the token", async () => {
  const requests = [
    new Request(`${BASE}/fleet/motebits`, { method: "POST", headers: { Authorization: `Bearer ${FLEET_TOKEN}` }, body: JSON.stringify({ name: "nope" }) }),
    new Request(`${BASE}/fleet/motebits`, { headers: { Authorization: `Bearer ${FLEET_TOKEN}` } }),
    new Request(`${BASE}/fleet/motebits/nope`, { method: "DELETE", headers: { Authorization: "Bearer wrong" } }),
    new Request(`${BASE}/m/nope/health`),
    new Request(`${BASE}/m/nope/mcp`, { method: "POST", body: JSON.stringify(INITIALIZE) }),
    new Request(`${BASE}/m/nope/mcp`, { method: "OPTIONS", headers: { Origin: "https://app.example.com" } }),
  ];
  for (const r of requests) expect([r.method, r.url, (await send(r)).status]).toEqual([r.method, r.url, 404]);
});

it("the single motebit behaves as before", async () => {
  const health = await send(new Request(`${BASE}/health`));
  expect([health.status, await health.json()]).toEqual([200, { status: "ok", motebit_id: SERVER_ID }]);
  const init = await send(mcpRequest(INITIALIZE));
  expect(init.status).toBe(200);
  expect(init.headers.get("Mcp-Session-Id")).toBeTruthy();
});

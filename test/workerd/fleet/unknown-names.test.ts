// A name nobody provisioned is 404 on every route, and touching it leaves no object behind: a stranger cannot
// mint objects. The same holds after a motebit is retired.
import { env, listDurableObjectIds, runInDurableObject, SELF } from "cloudflare:test";
import { expect, it } from "vitest";
import { BASE, INITIALIZE, STATIC } from "../edge/helpers.js";
import { createMotebit, operator, tokenFor } from "./helpers.js";

async function objectExists(key: string): Promise<boolean> {
  const ids = (await listDurableObjectIds(env.MOTEBIT)).map((id) => id.toString());
  return ids.includes(env.MOTEBIT.idFromName(key).toString());
}

const mcp = (name: string, auth: string) =>
  SELF.fetch(`${BASE}/m/${name}/mcp`, { method: "POST", headers: { Authorization: auth, "Content-Type": "application/json", Accept: "application/json" }, body: JSON.stringify(INITIALIZE) });

it("an unknown name is 404 everywhere and no object state is created for it", async () => {
  const answers = [
    await SELF.fetch(`${BASE}/m/ghost/health`),
    await mcp("ghost", STATIC),
    await mcp("ghost", await tokenFor("some-motebit-id")),
    await SELF.fetch(`${BASE}/m/ghost/mcp`, { method: "DELETE", headers: { Authorization: STATIC } }),
    await SELF.fetch(`${BASE}/m/ghost/mcp`, { method: "OPTIONS", headers: { Origin: "https://app.example.com", "Access-Control-Request-Method": "POST" } }),
    await operator("GET", "/motebits/ghost"),
    await operator("PATCH", "/motebits/ghost", { tools: null }),
    await operator("DELETE", "/motebits/ghost"),
  ];
  for (const res of answers) expect([res.status, await res.json()]).toEqual([404, { error: "not found" }]);
  expect(await objectExists("fleet:ghost")).toBe(false);
});

it("a path that is not a fleet name is 404 without reaching any object", async () => {
  for (const path of ["/m/UPPER/health", "/m/" + "x".repeat(64) + "/health", "/m/a%3Ab/health", "/m", "/m/", "/fleet", "/fleet/other"]) {
    const res = await SELF.fetch(`${BASE}${path}`, { headers: { Authorization: "Bearer edge-test-fleet-operator-token" } });
    expect([path, res.status]).toEqual([path, 404]);
  }
  expect(await objectExists("motebit")).toBe(false);
});

it("a retired motebit is 404 at its URL and its object holds nothing", async () => {
  const made = await createMotebit("short-lived");
  expect((await SELF.fetch(`${BASE}/m/short-lived/health`)).status).toBe(200);
  const preflight = await SELF.fetch(`${BASE}/m/short-lived/mcp`, { method: "OPTIONS", headers: { Origin: "https://app.example.com", "Access-Control-Request-Method": "POST" } });
  expect([preflight.status, preflight.headers.get("Access-Control-Allow-Origin")]).toEqual([204, "https://app.example.com"]);
  expect((await operator("DELETE", "/motebits/short-lived")).status).toBe(200);
  expect((await SELF.fetch(`${BASE}/m/short-lived/health`)).status).toBe(404);
  expect((await mcp("short-lived", await tokenFor(made.motebit_id))).status).toBe(404);
  const tables = await runInDurableObject(env.MOTEBIT.get(env.MOTEBIT.idFromName("fleet:short-lived")), (_o, state) =>
    state.storage.sql.exec("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_cf\\_%' ESCAPE '\\'").toArray(),
  );
  expect(tables).toEqual([]);
  expect(await runInDurableObject(env.MOTEBIT.get(env.MOTEBIT.idFromName("fleet:short-lived")), (_o, state) => state.storage.getAlarm())).toBeNull();
});

it("a path under a provisioned name that no route serves never falls through to the default motebit", async () => {
  await createMotebit("routed");
  // The fleet motebit's own app answers (auth first, fail-closed: the operator's token is no caller of it); the
  // operator's API is 404 past its routes.
  const answers: [string, string, number, unknown][] = [
    ["GET", "/m/routed/no-such-route", 401, { error: "unauthorized" }],
    ["POST", "/m/routed/health", 401, { error: "unauthorized" }],
    ["GET", "/fleet/motebits/routed/nothing", 404, { error: "not found" }],
  ];
  for (const [method, path, status, body] of answers) {
    const res = await SELF.fetch(`${BASE}${path}`, { method, headers: { Authorization: "Bearer edge-test-fleet-operator-token" } });
    expect([path, res.status, await res.json()]).toEqual([path, status, body]);
  }
  expect(await objectExists("motebit")).toBe(false);
});

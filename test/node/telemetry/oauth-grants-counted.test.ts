// OAuth grants made and revoked are counted where the store writes them, whichever endpoint asked.
import { afterEach, expect, it } from "vitest";
import { OAuthStore } from "../../../src/oauth/store.js";
import { memorySql } from "../helpers/sqlite.js";
import { inMemoryOtel, type InMemoryOtel } from "./in-memory-otel.js";

let otel: InMemoryOtel;
afterEach(() => otel?.shutdown());

const grant = (id: string, clientId: string) => ({
  id, clientId, trust: "verified" as const, resource: "https://m.test/mcp", redirectUri: "https://c.test/cb", codeChallenge: "x", codeHash: `h-${id}`, codeExpiresAt: 0, createdAt: 0,
});

it("counts grants made, and each grant a revocation ends", async () => {
  otel = inMemoryOtel();
  const store = new OAuthStore(memorySql(), otel.port);
  store.migrate();
  store.createGrant(grant("g1", "client-a"));
  store.createGrant(grant("g2", "client-a"));
  store.createGrant(grant("g3", "client-b"));
  store.revokeClient("client-a", 1);
  store.revokeGrant("g3", 1);
  store.revokeGrant("g3", 2);
  const metrics = (await otel.metrics()).flatMap((r) => r.scopeMetrics.flatMap((s) => s.metrics));
  const value = (name: string) => metrics.find((m) => m.descriptor.name === name)?.dataPoints[0].value;
  expect(value("motebit.oauth.grants")).toBe(3);
  expect(value("motebit.oauth.revocations")).toBe(3);
});

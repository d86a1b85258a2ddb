// What anonymous OAuth callers can store is bounded per source and in all, and a full table makes room by dropping
// the oldest never-approved row of that source (then of all), never by refusing: one source cannot lock others out.
// Metadata-document clients count like registrations, and their document is not fetched again for every /authorize.
import { describe, expect, it } from "vitest";
import {
  MAX_PENDING_REQUESTS, MAX_PENDING_REQUESTS_PER_SOURCE, MAX_UNGRANTED_CLIENTS, MAX_UNGRANTED_CLIENTS_PER_SOURCE, OAuthStore, type StoredClient,
} from "../../../src/oauth/store.js";
import { memorySql } from "../helpers/sqlite.js";
import { nodeApp } from "../helpers/node-app.js";
import { REDIRECT_URI } from "../../shared/oauth-driver.js";
import { fakeClock } from "./fake-clock.js";

const client = (id: string, at: number): StoredClient => ({ clientId: id, kind: "registered", name: id, redirectUris: [REDIRECT_URI], createdAt: at });
const request = (code: string, clientId: string, at: number) => ({
  code, clientId, redirectUri: REDIRECT_URI, codeChallenge: "c".repeat(43), state: null, resource: "https://m.test/mcp", scope: "motebit:read", csrf: "x", expiresAt: at + 600_000,
});

function store() {
  const s = new OAuthStore(memorySql());
  s.migrate();
  return s;
}

describe("registrations", () => {
  it("a source past its share drops its own oldest; another source's client stays", () => {
    const s = store();
    s.register(client("victim", 1), "198.51.100.7", 1);
    for (let i = 0; i < MAX_UNGRANTED_CLIENTS_PER_SOURCE + 5; i++) s.register(client(`flood-${i}`, 10 + i), "203.0.113.9", 10 + i);
    expect(s.client("victim")).not.toBeNull();
    expect(s.client("flood-0")).toBeNull();
    expect(s.client(`flood-${MAX_UNGRANTED_CLIENTS_PER_SOURCE + 4}`)).not.toBeNull();
    expect(s.listClients().filter((c) => c.client_id.startsWith("flood-"))).toHaveLength(MAX_UNGRANTED_CLIENTS_PER_SOURCE);
  });

  it("a full table drops the oldest never-approved client, never one with a grant, and never refuses", () => {
    const s = store();
    s.register(client("approved", 0), "a", 0);
    s.createGrant({ id: "g", clientId: "approved", trust: "verified", resource: "r", redirectUri: REDIRECT_URI, codeChallenge: "c", codeHash: null, codeExpiresAt: 0, createdAt: 0 });
    for (let i = 0; i < MAX_UNGRANTED_CLIENTS + 3; i++) s.register(client(`c-${i}`, 1 + i), `src-${i}`, 1 + i);
    expect(s.client("approved")).not.toBeNull();
    expect(s.client("c-0")).toBeNull();
    expect(s.client(`c-${MAX_UNGRANTED_CLIENTS + 2}`)).not.toBeNull();
    expect(s.listClients()).toHaveLength(MAX_UNGRANTED_CLIENTS + 1);
  });
});

describe("consent requests", () => {
  it("a source past its share drops its own oldest; another source's request stays open", () => {
    const s = store();
    s.openRequest(request("VICT-IM00", "victim", 0), "198.51.100.7", 0);
    for (let i = 0; i < MAX_PENDING_REQUESTS_PER_SOURCE + 5; i++) s.openRequest(request(`FLOO-D${String(i).padStart(3, "0")}`, "victim", 1 + i), "203.0.113.9", 1 + i);
    expect(s.request("VICT-IM00")).not.toBeNull();
    expect(s.request("FLOO-D000")).toBeNull();
    expect(s.request(`FLOO-D${String(MAX_PENDING_REQUESTS_PER_SOURCE + 4).padStart(3, "0")}`)).not.toBeNull();
  });

  it("a full table drops the oldest pending request and opens the new one", () => {
    const s = store();
    for (let i = 0; i <= MAX_PENDING_REQUESTS; i++) s.openRequest(request(`R-${i}`, "c", i), `src-${i}`, i);
    expect(s.request("R-0")).toBeNull();
    expect(s.request(`R-${MAX_PENDING_REQUESTS}`)).not.toBeNull();
  });
});

describe("metadata-document clients", () => {
  it("are counted with registrations and fetched once for many /authorize", async () => {
    const url = "https://app.example.com/oauth/client.json";
    let fetches = 0;
    const clock = fakeClock();
    const { app, backend } = await nodeApp({}, {
      clock,
      fetchClientMetadata: async () => (fetches++, { ok: true, document: { client_id: url, client_name: "Doc", redirect_uris: [REDIRECT_URI] } }),
    });
    const q = new URLSearchParams({ response_type: "code", client_id: url, redirect_uri: REDIRECT_URI, code_challenge: "c".repeat(43), code_challenge_method: "S256" });
    for (let i = 0; i < 5; i++) expect((await app.fetch(new Request(`https://m.test/authorize?${q}`))).status).toBe(200);
    expect(fetches).toBe(1);
    clock.advance(6 * 60_000);
    expect((await app.fetch(new Request(`https://m.test/authorize?${q}`))).status).toBe(200);
    expect(fetches).toBe(2);
    expect(backend.oauth.store.client(url)?.kind).toBe("metadata_document");
  });
});

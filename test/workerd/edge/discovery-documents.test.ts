// The edge serves the signed discovery documents and the page for its own motebit and for each fleet motebit under
// /m/<name>, on MOTEBIT_PUBLIC_URL whatever Host a request names; jose verifies each signature (#39 item 3).
import { SELF } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { joseVerify, type Json, unsign } from "../../shared/discovery-jws.js";
import { BASE, keys } from "./helpers.js";
import { createMotebit, type Created } from "../fleet/helpers.js";

const DOCS = [["agentCard", "/.well-known/agent-card.json"], ["serverCard", "/.well-known/mcp/server-card.json"], ["serverCard", "/mcp/server-card"], ["serverJson", "/server.json"]] as const;
let fleet: Created;

beforeAll(async () => {
  fleet = await createMotebit("disc-alpha");
});

describe("discovery documents at the edge", () => {
  it("the deployment's motebit: each document verifies under its key with jose and names its /mcp on the public URL", async () => {
    for (const [kind, path] of DOCS) {
      const res = await SELF.fetch(`http://evil.example${path}`);
      expect(res.status, path).toBe(200);
      const doc = (await res.json()) as Json;
      const { unsigned, jws } = unsign(kind, doc);
      await joseVerify(unsigned, jws, keys.server.public_key_hex);
      expect(JSON.stringify(doc), path).toContain(`"${BASE}/mcp"`);
      expect(JSON.stringify(doc), path).not.toContain("evil.example");
    }
  });

  it("a fleet motebit: its own documents under /m/<name>, signed with its own key", async () => {
    for (const [kind, path] of DOCS) {
      const doc = (await (await SELF.fetch(`${BASE}/m/disc-alpha${path}`)).json()) as Json;
      const { unsigned, jws } = unsign(kind, doc);
      await joseVerify(unsigned, jws, fleet.public_key);
      await expect(joseVerify(unsigned, jws, keys.server.public_key_hex), path).rejects.toThrow();
      expect(JSON.stringify(doc), path).toContain(`"${BASE}/m/disc-alpha/mcp"`);
    }
  });

  it("the page of each, and 404 for a name nobody provisioned", async () => {
    const own = await SELF.fetch(`${BASE}/`);
    expect([own.status, own.headers.get("Content-Type")]).toEqual([200, "text/html; charset=utf-8"]);
    expect(await own.text()).toContain(keys.server.sovereign_motebit_id);
    const page = await SELF.fetch(`${BASE}/m/disc-alpha/`);
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(fleet.motebit_id);
    const unknown = await SELF.fetch(`${BASE}/m/disc-nobody/.well-known/agent-card.json`);
    expect(unknown.status).toBe(404);
    await unknown.body?.cancel();
  });
});

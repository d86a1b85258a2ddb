// The discovery documents are signed with the motebit's key and check out under an independent JOSE library (jose)
// over an independent RFC 8785 implementation (canonicalize); they list the tools exactly as tools/list shows a
// first-contact caller; their URLs are the trusted base's, never the caller's Host (#39 item 3).
import { describe, expect, it } from "vitest";
import { joseVerify, type Json, unsign } from "../../shared/discovery-jws.js";
import { statelessBody, statelessHeaders } from "../../shared/stateless-request.js";
import { nodeApp } from "../helpers/node-app.js";
import { verifyDetached } from "../../../src/discovery/detached-jws.js";
import keys from "../../fixtures/edge/keys.json";

const LOOPBACK = "http://127.0.0.1";
const FIRST_CONTACT_TOKEN = "first-contact-token-0001";

async function get(app: { fetch: (r: Request) => Response | Promise<Response> }, url: string): Promise<Response> {
  return app.fetch(new Request(url));
}

async function app(env: Record<string, unknown> = {}) {
  return nodeApp({ MOTEBIT_AUTH_TOKENS: JSON.stringify({ stranger: { token: FIRST_CONTACT_TOKEN, trust: "first_contact" } }), ...env });
}

describe("the A2A Agent Card", () => {
  it("carries a detached EdDSA JWS over its JCS form without signatures, which jose verifies under the motebit's key", async () => {
    const { app: a, motebit } = await app();
    const res = await get(a, `${LOOPBACK}/.well-known/agent-card.json`);
    expect(res.status).toBe(200);
    const card = (await res.json()) as Json;
    expect(card.signatures).toHaveLength(1);
    const { unsigned, jws } = unsign("agentCard", card);
    const verified = await joseVerify(unsigned, jws, motebit.publicKeyHex);
    expect(verified.protectedHeader).toMatchObject({ alg: "EdDSA", kid: `${motebit.did}#${motebit.did.slice(8)}` });
    expect(card).toMatchObject({ protocolVersion: "0.3.0", url: `${LOOPBACK}/mcp`, preferredTransport: "MCP" });
    expect(card.capabilities.extensions[0].params).toMatchObject({ motebit_id: motebit.motebitId, did: motebit.did, public_key: motebit.publicKeyHex });
    expect(card.securitySchemes.oauth.oauth2MetadataUrl).toBe(`${LOOPBACK}/.well-known/oauth-authorization-server`);
    expect(Object.keys(card.securitySchemes).sort()).toEqual(["oauth", "signed_token", "static_token"]);
  });

  it("a card changed after signing fails jose's check", async () => {
    const { app: a, motebit } = await app();
    const { signatures, ...unsigned } = (await (await get(a, `${LOOPBACK}/.well-known/agent-card.json`)).json()) as Json;
    await expect(joseVerify({ ...unsigned, url: "https://evil.example/mcp" }, signatures[0], motebit.publicKeyHex)).rejects.toThrow(/signature verification failed/);
  });
});

describe("the MCP server card and server.json", () => {
  it("each carries a signature jose verifies, the SEP-2127 / registry schema's fields, and the connection facts", async () => {
    const { app: a, motebit } = await app();
    const card = (await (await get(a, `${LOOPBACK}/.well-known/mcp/server-card.json`)).json()) as Json;
    const { unsigned, jws } = unsign("serverCard", card);
    await joseVerify(unsigned, jws, motebit.publicKeyHex);
    const meta = unsigned._meta;
    expect(card.$schema).toBe("https://static.modelcontextprotocol.io/schemas/v2/server-card.schema.json");
    expect(card.name).toMatch(/^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/);
    expect(card.description.length).toBeLessThanOrEqual(100);
    expect(card.remotes).toEqual([{ type: "streamable-http", url: `${LOOPBACK}/mcp`, supportedProtocolVersions: ["2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"] }]);
    const m = meta["dev.motebit/motebit"];
    expect(m).toMatchObject({ motebit_id: motebit.motebitId, did: motebit.did, public_key: motebit.publicKeyHex });
    expect(m.auth.oauth).toEqual({ protected_resource_metadata: `${LOOPBACK}/.well-known/oauth-protected-resource/mcp`, authorization_server_metadata: `${LOOPBACK}/.well-known/oauth-authorization-server` });

    const sj = (await (await get(a, `${LOOPBACK}/server.json`)).json()) as Json;
    const signedJson = unsign("serverJson", sj);
    await joseVerify(signedJson.unsigned, signedJson.jws, motebit.publicKeyHex);
    expect(sj).toMatchObject({ $schema: "https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json", name: card.name, remotes: [{ type: "streamable-http", url: `${LOOPBACK}/mcp` }] });
    expect(Object.keys(sj._meta)).toEqual(["io.modelcontextprotocol.registry/publisher-provided"]);
  });

  it("the same card answers at <mcp url>/server-card (SEP-2127's reserved place), in its media type when asked for it", async () => {
    const { app: a } = await app();
    const wellKnown = await (await get(a, `${LOOPBACK}/.well-known/mcp/server-card.json`)).text();
    const res = await a.fetch(new Request(`${LOOPBACK}/mcp/server-card`, { headers: { Accept: "application/mcp-server-card+json" } }));
    expect([res.status, res.headers.get("Content-Type")]).toEqual([200, "application/mcp-server-card+json"]);
    expect(await res.text()).toBe(wellKnown);
    expect(JSON.parse(wellKnown)._meta["dev.motebit/motebit"].server_card).toBe(`${LOOPBACK}/mcp/server-card`);
  });

  it("lists the tools exactly as tools/list answers a first-contact caller, with each one's risk", async () => {
    const { app: a } = await app();
    const card = (await (await get(a, `${LOOPBACK}/.well-known/mcp/server-card.json`)).json()) as Json;
    const listed = await a.fetch(new Request(`${LOOPBACK}/mcp`, {
      method: "POST",
      headers: { Authorization: `Bearer ${FIRST_CONTACT_TOKEN}`, "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...statelessHeaders("tools/list", {}) },
      body: JSON.stringify(statelessBody("tools/list", {})),
    }));
    const tools = ((await listed.json()) as Json).result.tools as Json[];
    const inCard = (card._meta["dev.motebit/motebit"].tools as Json[]).map(({ risk, ...t }) => t);
    expect(inCard).toEqual(tools);
    expect(tools.some((t) => t._meta?.["motebit/refusal"] !== undefined)).toBe(true);
    expect((card._meta["dev.motebit/motebit"].tools as Json[]).every((t) => t.risk === null || /^R[0-4]_[A-Z]+$/.test(t.risk))).toBe(true);
  });
});

describe("where the documents say the motebit lives", () => {
  it("under MOTEBIT_PUBLIC_URL every URL is that base's, whatever Host the request named", async () => {
    const { app: a } = await app();
    // The edge reads MOTEBIT_PUBLIC_URL from the Worker's env per request.
    const res = await a.fetch(new Request(`${LOOPBACK}/.well-known/agent-card.json`), { MOTEBIT_PUBLIC_URL: "https://motebit.example" });
    const card = (await res.json()) as Json;
    expect(card.url).toBe("https://motebit.example/mcp");
    expect(JSON.stringify(card)).not.toContain("127.0.0.1");
  });

  it("under a Host it does not vouch for, 421 and nothing signed", async () => {
    const { app: a } = await app();
    for (const path of ["/.well-known/agent-card.json", "/.well-known/mcp/server-card.json", "/mcp/server-card", "/server.json", "/"]) {
      const res = await get(a, `http://evil.example${path}`);
      expect(res.status, path).toBe(421);
      expect(await res.text()).not.toContain("signature");
    }
  });

  it("says nothing of the owner: no static token, no known caller, no memory", async () => {
    const { app: a } = await app();
    for (const path of ["/.well-known/agent-card.json", "/.well-known/mcp/server-card.json", "/mcp/server-card", "/server.json", "/"]) {
      const text = await (await get(a, `${LOOPBACK}${path}`)).text();
      expect(text, path).not.toContain(keys.known_caller.sovereign_motebit_id);
      expect(text, path).not.toContain(keys.auth_token);
      expect(text, path).not.toContain(FIRST_CONTACT_TOKEN);
    }
  });
});

describe("verifyDetached (what server-json checks before it prints)", () => {
  it("accepts the served server.json and refuses it once changed", async () => {
    const { app: a, motebit } = await app();
    const { unsigned, jws } = unsign("serverJson", (await (await get(a, `${LOOPBACK}/server.json`)).json()) as Json);
    expect(await verifyDetached(unsigned, jws, motebit.publicKeyHex)).toBe(true);
    expect(await verifyDetached({ ...unsigned, remotes: [{ type: "streamable-http", url: "https://evil.example/mcp" }] }, jws, motebit.publicKeyHex)).toBe(false);
    expect(await verifyDetached(unsigned, { ...jws, protected: "eyJhbGciOiJub25lIn0" }, motebit.publicKeyHex)).toBe(false);
  });
});

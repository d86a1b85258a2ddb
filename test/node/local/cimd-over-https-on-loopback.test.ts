// A host that names itself by a Client ID Metadata Document, end to end on the Node host: the document is served
// over https on loopback with a CA the test made, the motebit fetches it (loopback allowed for this test only, the
// test's CA trusted), and the MCP SDK's client goes through authorize, the owner's consent and the token endpoint
// with the document's URL as its client_id. Without the test-only option the same client is refused.
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { localHttpsFetch } from "../../../local-stdio/src/serve/public-fetch.js";
import { signApproval, type RequestDetails } from "../../../src/oauth/approval.js";
import { metadataDocumentFetcher } from "../../../src/oauth/http/metadata-document-fetch.js";
import { createSigner } from "../../../src/protocol/index.js";
import keys from "../../fixtures/edge/keys.json";
import { nodeApp } from "../helpers/node-app.js";
import { connectThroughConsent } from "../helpers/oauth-consent.js";
import { testCa } from "../helpers/test-ca.js";
import { MemoryProvider, REDIRECT_URI } from "../../shared/oauth-driver.js";

const listen = (server: { listen(port: number, host: string, cb: () => void): unknown; address(): unknown }) =>
  new Promise<number>((resolve) => server.listen(0, "127.0.0.1", () => resolve((server.address() as AddressInfo).port)));

describe("a Client ID Metadata Document over https on loopback", () => {
  const { ca, cert, key } = testCa();
  let documentServer: Server;
  let clientId = "";
  let fetches = 0;
  const closers: (() => void)[] = [];

  beforeAll(async () => {
    documentServer = createServer({ cert, key }, (_, res) => {
      fetches++;
      res.setHeader("Content-Type", "application/json");
      res.setHeader("Cache-Control", "max-age=300");
      res.end(JSON.stringify({
        client_id: clientId, client_name: "CIMD host", redirect_uris: [REDIRECT_URI],
        grant_types: ["authorization_code", "refresh_token"], response_types: ["code"], token_endpoint_auth_method: "none",
      }));
    });
    clientId = `https://localhost:${await listen(documentServer)}/oauth/client.json`;
    closers.push(() => documentServer.close());
  });
  afterAll(() => closers.forEach((close) => close()));

  async function motebit(loopbackMetadataDocuments: boolean): Promise<string> {
    const { app } = await nodeApp({}, { fetchClientMetadata: metadataDocumentFetcher(localHttpsFetch(ca)), loopbackMetadataDocuments });
    const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
    await new Promise((r) => server.once("listening", r));
    closers.push(() => server.close());
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  }

  it("the MCP SDK's client connects through authorize, consent and token with the document's URL as client_id", async () => {
    const base = await motebit(true);
    const owner = await createSigner(keys.server.seed_hex);
    const provider = new MemoryProvider(undefined, clientId);
    const { client } = await connectThroughConsent(new URL(`${base}/mcp`), async (page) => {
      expect(page.html).toContain("CIMD host");
      const details = (await (await fetch(`${base}/oauth/requests/${page.code}`)).json()) as RequestDetails;
      expect(details.client_id).toBe(clientId);
      return signApproval(details, "verified", owner);
    }, provider);
    expect(provider.info?.client_id).toBe(clientId);
    expect((await client.listTools()).tools.length).toBeGreaterThan(0);
    await client.close();
    // Fetched when first seen, then kept by its max-age for the rest of the flow.
    expect(fetches).toBe(1);
  });

  it("without the test-only option a loopback document is refused before any fetch", async () => {
    const base = await motebit(false);
    const before = fetches;
    const q = new URLSearchParams({ response_type: "code", client_id: clientId, redirect_uri: REDIRECT_URI, code_challenge: "c".repeat(43), code_challenge_method: "S256" });
    const page = await fetch(`${base}/authorize?${q}`);
    expect(page.status).toBe(400);
    expect(await page.text()).toContain("use an https Client ID Metadata Document URL");
    expect(fetches).toBe(before);
  });
});

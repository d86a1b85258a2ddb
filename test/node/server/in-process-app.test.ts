// The Node host's shape: the same Hono app over an in-process backend (node:sqlite), driven by the real MCP SDK client.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describe, expect, it } from "vitest";
import { createSigner, identityTag, mintBearerToken } from "../../../src/protocol/index.js";
import keys from "../../fixtures/edge/keys.json";
import { nodeApp } from "../helpers/node-app.js";
import { REFUSAL_META_KEY } from "../../../src/mcp/catalog.js";
import { RECALL_REFUSAL } from "../../../src/mcp/synthetic/recall.js";

describe("the app in-process (the Node host's HTTP surface)", () => {
  it("serves /health without auth", async () => {
    const { app } = await nodeApp();
    const res = await app.fetch(new Request("http://127.0.0.1:3100/health"));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok", motebit_id: keys.server.sovereign_motebit_id });
  });

  it("the MCP SDK client initializes, lists, calls and terminates with a fresh signed token per request", async () => {
    const { app, sql } = await nodeApp();
    const caller = await createSigner(keys.known_caller.seed_hex);
    const signedFetch = async (url: string | URL, init?: RequestInit) => {
      const token = await mintBearerToken(
        { mid: keys.known_caller.sovereign_motebit_id, did: "device-1", aud: "mcp:call", sub: keys.server.sovereign_motebit_id },
        caller,
      );
      const headers = new Headers(init?.headers);
      headers.set("Authorization", `Bearer motebit:${token}`);
      return app.fetch(new Request(url, { ...init, headers }));
    };
    const transport = new StreamableHTTPClientTransport(new URL("http://127.0.0.1:3100/mcp"), { fetch: signedFetch });
    const client = new Client({ name: "edge-test", version: "1.0.0" });
    await client.connect(transport);
    expect(transport.sessionId).toMatch(/^[0-9a-f]{32}$/);
    expect(sql.all("SELECT caller_id FROM mcp_sessions")).toEqual([{ caller_id: keys.known_caller.sovereign_motebit_id }]);

    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["motebit_identity", "motebit_tools", "echo"]));
    // A listed tool this peer would be refused carries the reason through the SDK's schema.
    expect(tools.find((t) => t.name === "motebit_recall")?._meta).toEqual({ [REFUSAL_META_KEY]: RECALL_REFUSAL });
    const result = (await client.callTool({ name: "echo", arguments: { text: "hi" } })) as { content: { type: string; text: string }[] };
    expect(result.content[0].text).toBe(`hi\n${identityTag(keys.server.sovereign_motebit_id, keys.server.public_key_hex)}`);

    await transport.terminateSession();
    expect(sql.all("SELECT caller_id FROM mcp_sessions")).toEqual([]);
    await client.close();
  });
});

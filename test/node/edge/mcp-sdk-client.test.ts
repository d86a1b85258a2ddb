// Black box: the real local edge (wrangler dev --local) driven by the official MCP SDK client.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSigner, identityTag, mintBearerToken } from "../../../src/protocol/index.js";
import keys from "../../fixtures/edge/keys.json";
import { startLocalEdge, type LocalEdge } from "./local-edge.js";
import { spawnSync } from "node:child_process";
import { RECALL_REFUSAL } from "../../../src/mcp/synthetic/recall.js";

const TAG = identityTag(keys.server.sovereign_motebit_id, keys.server.public_key_hex);
let edge: LocalEdge;

beforeAll(async () => {
  edge = await startLocalEdge({
    MOTEBIT_PRIVATE_KEY: keys.server.seed_hex,
    MOTEBIT_AUTH_TOKEN: keys.auth_token,
    MOTEBIT_KNOWN_CALLERS: JSON.stringify({
      [keys.known_caller.sovereign_motebit_id]: { public_key: keys.known_caller.public_key_hex, trust: "verified" },
    }),
  });
}, 90_000);

afterAll(async () => {
  await edge?.stop();
});

function firstText(result: unknown): string {
  return (result as { content: { type: string; text: string }[] }).content[0].text;
}

describe("the local edge, black box", () => {
  it("/health is public", async () => {
    const res = await fetch(`${edge.url}/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: "ok", motebit_id: keys.server.sovereign_motebit_id });
  });

  it("no credential → 401", async () => {
    const res = await fetch(`${edge.url}/mcp`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: "unauthorized" });
  });

  it("static token: initialize, tools/list, tools/call motebit_identity, terminateSession", async () => {
    const transport = new StreamableHTTPClientTransport(new URL(`${edge.url}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${keys.auth_token}` } },
    });
    const client = new Client({ name: "edge-black-box", version: "1.0.0" });
    await client.connect(transport);
    const session = transport.sessionId!;
    expect(session).toMatch(/^[\x21-\x7e]{32,}$/);

    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(["motebit_identity", "motebit_tools", "echo"]));

    const text = firstText(await client.callTool({ name: "motebit_identity", arguments: {} }));
    expect(text.endsWith(`\n${TAG}`)).toBe(true);
    expect(JSON.parse(text.slice(0, -TAG.length - 1))).toMatchObject({
      motebit_id: keys.server.sovereign_motebit_id,
      public_key: keys.server.public_key_hex,
    });

    await transport.terminateSession();
    const after = await fetch(`${edge.url}/mcp`, {
      method: "POST",
      headers: { Authorization: `Bearer ${keys.auth_token}`, "Content-Type": "application/json", Accept: "application/json", "Mcp-Session-Id": session },
      body: JSON.stringify({ jsonrpc: "2.0", id: 9, method: "ping" }),
    });
    expect(after.status).toBe(404);
    await client.close();
  });

  it("signed tokens: a fresh motebit token per request from a known caller", async () => {
    const signer = await createSigner(keys.known_caller.seed_hex);
    let minted = 0;
    const signedFetch = async (url: string | URL, init?: RequestInit) => {
      const token = await mintBearerToken(
        { mid: keys.known_caller.sovereign_motebit_id, did: "black-box-device", aud: "mcp:call", sub: keys.server.sovereign_motebit_id },
        signer,
      );
      minted++;
      const headers = new Headers(init?.headers);
      headers.set("Authorization", `Bearer motebit:${token}`);
      return fetch(url, { ...init, headers });
    };
    const transport = new StreamableHTTPClientTransport(new URL(`${edge.url}/mcp`), { fetch: signedFetch });
    const client = new Client({ name: "edge-black-box-signed", version: "1.0.0" });
    await client.connect(transport);
    expect(firstText(await client.callTool({ name: "echo", arguments: { text: "signed hello" } }))).toBe(`signed hello\n${TAG}`);
    await transport.terminateSession();
    await client.close();
    expect(minted).toBeGreaterThanOrEqual(4); // initialize, initialized, tools/call, DELETE (+ the optional GET stream probe)
  });

  it("a peer's motebit_task over HTTP returns a signed receipt that `motebit-local verify` accepts; recall is refused", async () => {
    const transport = new StreamableHTTPClientTransport(new URL(`${edge.url}/mcp`), {
      requestInit: { headers: { Authorization: `Bearer ${keys.auth_token}` } },
    });
    const client = new Client({ name: "edge-black-box-task", version: "1.0.0" });
    await client.connect(transport);
    const text = firstText(await client.callTool({ name: "motebit_task", arguments: { prompt: "verify me" } }));
    const receiptJson = text.slice(0, -TAG.length - 1);
    const receipt = JSON.parse(receiptJson);
    expect(receipt).toMatchObject({ status: "completed", result: "verify me", memories_formed: 0 });
    const cli = spawnSync(process.execPath, ["local-stdio/bin/motebit-local.js", "verify", "-"], { input: receiptJson, encoding: "utf8" });
    expect(cli.status).toBe(0);
    expect(JSON.parse(cli.stdout)).toMatchObject({ valid: true, type: "receipt", motebit_id: keys.server.sovereign_motebit_id, sovereign: true });

    const recall = await client.callTool({ name: "motebit_recall", arguments: { query: "anything" } });
    expect(recall).toEqual({ content: [{ type: "text", text: RECALL_REFUSAL }], isError: true });
    await transport.terminateSession();
    await client.close();
  });

  it("an over-cap chunked body gets 413 and the next request is served normally", async () => {
    const headers = { Authorization: `Bearer ${keys.auth_token}`, "Content-Type": "application/json", Accept: "application/json" };
    const chunk = new Uint8Array(64 * 1024).fill(0x61);
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 2 * 1024 * 1024) return controller.close();
        sent += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const big = await fetch(`${edge.url}/mcp`, { method: "POST", headers, body, duplex: "half" } as RequestInit);
    expect(big.status).toBe(413);
    await big.arrayBuffer();
    const next = await fetch(`${edge.url}/mcp`, {
      method: "POST",
      headers,
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "after-413", version: "1" } } }),
    });
    expect(next.status).toBe(200);
  });
});

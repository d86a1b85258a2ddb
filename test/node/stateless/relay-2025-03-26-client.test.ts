// The relay still speaks 2025-03-26: initialize without the later headers, then tools/call motebit_task with a
// relay-signed token per request. Serving 2026-07-28 on the same endpoint must not change a byte of that path.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSigner, mintBearerToken, publicKeyToDidKey, verifyReceipt } from "../../../src/protocol/index.js";
import type { ServedTool } from "../../../src/tools/types.js";
import keys from "../../fixtures/edge/keys.json";
import { startProtocolHost, type ProtocolHost } from "../helpers/protocol-host.js";
import { receiptOfResult } from "../../shared/receipt-of-result.js";

let host: ProtocolHost;
const shout: ServedTool = {
  definition: { name: "shout", description: "Upper-cases text.", inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] }, risk: "R0_READ" },
  handler: (args) => ({ ok: true, data: String(args.text).toUpperCase() }),
};

beforeAll(async () => void (host = await startProtocolHost({ MOTEBIT_RELAY_TRUST: keys.relay.public_key_hex }, [shout])));
afterAll(async () => host?.close());

async function relayPost(body: unknown, sessionId?: string): Promise<Response> {
  const signer = await createSigner(keys.relay.seed_hex);
  const token = await mintBearerToken(
    { mid: "agent-7", did: publicKeyToDidKey(keys.relay.public_key_hex), aud: "mcp:call", sub: host.motebit.motebitId },
    signer,
  );
  return fetch(`${host.http.url}/mcp`, {
    method: "POST",
    headers: {
      Authorization: `Bearer motebit:${token}`,
      "Content-Type": "application/json",
      Accept: "application/json, text/event-stream",
      ...(sessionId !== undefined && { "Mcp-Session-Id": sessionId }),
    },
    body: JSON.stringify(body),
  });
}

describe("a 2025-03-26 relay-style client", () => {
  it("initializes with a session, forwards motebit_task and gets a receipt that verifies, unchanged", async () => {
    const init = await relayPost({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "relay-forward", version: "1.0.0" } },
    });
    expect(init.status).toBe(200);
    const sessionId = init.headers.get("Mcp-Session-Id")!;
    expect(sessionId).toMatch(/.+/);
    const initBody = (await init.json()) as { result: Record<string, unknown> };
    expect(initBody.result.protocolVersion).toBe("2025-03-26");
    expect(initBody.result).not.toHaveProperty("resultType");
    expect((await relayPost({ jsonrpc: "2.0", method: "notifications/initialized" }, sessionId)).status).toBe(202);

    const call = await relayPost(
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "motebit_task", arguments: { prompt: "forwarded", relay_task_id: "relay-task-1", required_capabilities: ["shout"] } } },
      sessionId,
    );
    expect(call.status).toBe(200);
    expect(call.headers.get("Content-Type")).toMatch(/^application\/json/);
    const body = (await call.json()) as { result: { content: { text: string }[] } };
    expect(body.result).not.toHaveProperty("resultType");
    const receipt = receiptOfResult(body.result);
    expect(receipt).toMatchObject({ status: "completed", result: "FORWARDED", relay_task_id: "relay-task-1", motebit_id: host.motebit.motebitId });
    expect((await verifyReceipt(receipt)).valid).toBe(true);
  });
});

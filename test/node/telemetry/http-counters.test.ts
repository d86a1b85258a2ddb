// Over HTTP: a request the rate bucket refuses is counted, and a session's length is recorded when it is closed.
import { afterEach, expect, it } from "vitest";
import keys from "../../fixtures/edge/keys.json";
import { nodeApp } from "../helpers/node-app.js";
import { inMemoryOtel, type InMemoryOtel } from "./in-memory-otel.js";

let otel: InMemoryOtel;
afterEach(() => otel?.shutdown());

const INITIALIZE = { jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } } };

async function app(env: Record<string, unknown> = {}) {
  otel = inMemoryOtel();
  const { app } = await nodeApp(env, { telemetry: otel.port });
  return (method: string, body?: unknown, headers: Record<string, string> = {}) =>
    app.fetch(
      new Request("http://node.test/mcp", {
        method,
        headers: { authorization: `Bearer ${keys.auth_token}`, "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
}

const metric = async (name: string) => (await otel.metrics()).flatMap((r) => r.scopeMetrics.flatMap((s) => s.metrics)).find((m) => m.descriptor.name === name);

it("counts the requests the caller's rate bucket refuses", async () => {
  const send = await app({ MOTEBIT_RATE_LIMIT: 1 });
  expect((await send("POST", INITIALIZE)).status).toBe(200);
  expect((await send("POST", INITIALIZE)).status).toBe(429);
  expect((await send("POST", INITIALIZE)).status).toBe(429);
  expect((await metric("motebit.rate_limited"))!.dataPoints).toEqual([expect.objectContaining({ value: 2 })]);
});

it("records mcp.server.session.duration when a session is closed", async () => {
  const send = await app();
  const session = (await send("POST", INITIALIZE)).headers.get("mcp-session-id")!;
  expect((await send("DELETE", undefined, { "mcp-session-id": session, "mcp-protocol-version": "2025-06-18" })).status).toBe(204);
  const duration = (await metric("mcp.server.session.duration"))!;
  expect(duration.descriptor.unit).toBe("s");
  expect(duration.dataPoints).toEqual([expect.objectContaining({ attributes: { "network.transport": "tcp" }, value: expect.objectContaining({ count: 1 }) })]);
});

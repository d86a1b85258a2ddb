// Over a real socket, a body that declares its Content-Length and then stops short (the client goes away) is read
// by the host's own reader, not a stream: it must still leave nothing behind — no jti consumed, no session, no audit.
import { connect } from "node:net";
import { afterEach, expect, it } from "vitest";
import { systemClock } from "../../../src/ports.js";
import { createSigner, mintBearerToken } from "../../../src/protocol/index.js";
import { serveHttp, type HttpHost } from "../../../local-stdio/src/serve/http-host.js";
import keys from "../../fixtures/edge/keys.json";
import { nodeApp } from "../helpers/node-app.js";

let host: HttpHost | null = null;
afterEach(async () => {
  await host?.close();
  host = null;
});

it("a declared-length body cut short consumes nothing: the same signed token then works once", async () => {
  const { motebit, sql, config } = await nodeApp();
  host = await serveHttp({ motebit, sql, clock: systemClock, config, host: "127.0.0.1", port: 0 });
  const caller = await createSigner(keys.known_caller.seed_hex);
  const token = await mintBearerToken({ mid: keys.known_caller.sovereign_motebit_id, did: "d", aud: "mcp:call", sub: keys.server.sovereign_motebit_id, jti: "cut-short-1" }, caller);
  const rows = () => ["jti_seen", "mcp_sessions", "audit_log"].map((t) => sql.all<{ n: number }>(`SELECT COUNT(*) AS n FROM ${t}`)[0].n);
  const before = rows();

  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
  });
  const { port } = new URL(host.url);
  const socket = connect(Number(port), "127.0.0.1");
  await new Promise<void>((r) => socket.once("connect", r));
  socket.write(
    `POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json\r\n` +
      `Authorization: Bearer motebit:${token}\r\nContent-Length: ${body.length}\r\n\r\n${body.slice(0, 40)}`,
  );
  socket.end();
  await new Promise<void>((r) => socket.once("close", () => r()).resume());

  expect(rows()).toEqual(before);
  const again = await fetch(`${host.url}/mcp`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Accept: "application/json", Authorization: `Bearer motebit:${token}` },
    body,
  });
  expect(again.status).toBe(200);
});

// A request whose body never arrives whole (Content-Length says more than is sent, within the cap, or a chunked
// body without its last chunk) is answered by
// the Node host's receive deadline with 408 and leaves nothing behind; the early 413 still answers an over-cap declaration.
import { connect } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import exampleTools from "../../../examples/tools/index.js";
import { serveHttp, type HttpHost } from "../../../local-stdio/src/serve/http-host.js";
import { Motebit } from "../../../src/motebit.js";
import { systemClock } from "../../../src/ports.js";
import { readServerConfig } from "../../../src/settings/server-config.js";
import { loadHostIdentity } from "../../../src/host/identity.js";
import { ToolRegistry } from "../../../src/tools/registry.js";
import keys from "../../fixtures/edge/keys.json";
import { memorySql } from "../helpers/sqlite.js";

function raw(url: string, contentLength: number | "chunked", body: string): Promise<{ status: number; ms: number }> {
  const { port } = new URL(url);
  const t0 = Date.now();
  return new Promise((resolve) => {
    const socket = connect(Number(port), "127.0.0.1", () => {
      socket.write(
        [
          "POST /mcp HTTP/1.1",
          `Host: 127.0.0.1:${port}`,
          `Authorization: Bearer ${keys.auth_token}`,
          "Content-Type: application/json",
          "Accept: application/json",
          contentLength === "chunked" ? "Transfer-Encoding: chunked" : `Content-Length: ${contentLength}`,
        ].join("\r\n") + "\r\n\r\n" + body,
      );
    });
    let data = "";
    socket.on("data", (d) => {
      data += d;
      const m = /^HTTP\/1\.1 (\d{3})/.exec(data);
      if (m) {
        socket.destroy();
        resolve({ status: Number(m[1]), ms: Date.now() - t0 });
      }
    });
    socket.on("close", () => resolve({ status: 0, ms: Date.now() - t0 }));
  });
}

describe("the Node host with a half-sent body", () => {
  let host: HttpHost;
  const sql = memorySql();
  afterAll(() => host?.close());

  it("answers 408 once the receive deadline passes, records nothing, and still answers an over-cap declaration with 413 at once", async () => {
    const id = await loadHostIdentity(sql, { privateKeyHex: keys.server.seed_hex, identityFileText: null });
    const motebit = await Motebit.create({
      sql, clock: systemClock, signer: id.signer, motebitId: id.motebitId, deviceId: id.deviceId, tools: ToolRegistry.fromModule(exampleTools),
    });
    host = await serveHttp({
      motebit, sql, clock: systemClock, config: readServerConfig({ env: { MOTEBIT_AUTH_TOKEN: keys.auth_token } }), host: "127.0.0.1", port: 0, requestReceiveMs: 500,
    });
    const init = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "x", version: "1" } } });
    const half = await raw(host.url, 500, init.slice(0, 40));
    expect(half.status).toBe(408);
    expect(half.ms).toBeLessThan(5_000);
    expect(sql.all<{ n: number }>("SELECT COUNT(*) AS n FROM mcp_sessions")[0].n).toBe(0);
    // Chunked, with chunks but never the last (zero-length) one: the same deadline answers it.
    const part = init.slice(0, 40);
    const unfinished = await raw(host.url, "chunked", `${part.length.toString(16)}\r\n${part}\r\n`);
    expect(unfinished.status).toBe(408);
    expect(unfinished.ms).toBeLessThan(5_000);
    expect(sql.all<{ n: number }>("SELECT COUNT(*) AS n FROM mcp_sessions")[0].n).toBe(0);
    const over = await raw(host.url, 5_000_000, init.slice(0, 40));
    expect(over.status).toBe(413);
    expect(over.ms).toBeLessThan(2_000);
  });
});

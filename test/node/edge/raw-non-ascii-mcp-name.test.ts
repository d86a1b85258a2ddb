// Raw non-ASCII bytes in Mcp-Name reach the real local edge over a socket (latin1 é, and é's UTF-8 bytes) and are
// refused with the header-mismatch error, as on motebit-local. Sent over real HTTP rather than from inside workerd:
// a header value with non-ASCII characters built in workerd makes the runtime print a warning on every run.
import { request } from "node:http";
import { afterAll, beforeAll, expect, it } from "vitest";
import keys from "../../fixtures/edge/keys.json";
import { statelessBody, statelessHeaders } from "../../shared/stateless-request.js";
import { startLocalEdge, type LocalEdge } from "./local-edge.js";

let edge: LocalEdge;

beforeAll(async () => {
  edge = await startLocalEdge({ MOTEBIT_AUTH_TOKEN: keys.auth_token }, { args: ["--log-level", "warn"] });
}, 90_000);

afterAll(async () => {
  await edge?.stop();
});

/** node:http writes a header string as latin1 bytes: "café" sends 0xE9, "cafÃ©" sends é's UTF-8 bytes C3 A9. */
function callWithName(name: string): Promise<{ status: number; body: { error: { code: number; message: string } } }> {
  const params = { name: "café", arguments: {} };
  const body = JSON.stringify(statelessBody("tools/call", params, { id: 9 }));
  return new Promise((resolve, reject) => {
    const req = request(
      `${edge.url}/mcp`,
      {
        method: "POST",
        headers: { Authorization: `Bearer ${keys.auth_token}`, "Content-Type": "application/json", Accept: "application/json", ...statelessHeaders("tools/call", params), "Mcp-Name": name },
      },
      (res) => {
        let text = "";
        res.setEncoding("utf8");
        res.on("data", (d) => (text += d));
        res.on("end", () => resolve({ status: res.statusCode!, body: JSON.parse(text) }));
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}

it("raw non-ASCII Mcp-Name bytes are refused at the edge, latin1 and UTF-8 alike", async () => {
  for (const raw of ["café", "cafÃ©"]) {
    const { status, body } = await callWithName(raw);
    expect([status, body.error.code, body.error.message]).toEqual([400, -32020, "Header mismatch: Mcp-Name carries raw non-ASCII bytes (send such a value as =?base64?…?=)"]);
  }
}, 30_000);

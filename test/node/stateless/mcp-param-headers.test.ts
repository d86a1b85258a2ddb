// 2026-07-28 (SEP-2243): a tool argument marked `x-mcp-header` rides in an Mcp-Param-{Name} header too, and both
// HTTP hosts hold the header to the body at tools/call — missing, different or badly encoded is 400 with -32020
// (HeaderMismatch), before the tool runs. Real HTTP: motebit-local's HTTP host, and the real local edge serving
// the conformance fixtures (whose test_header_param marks `region` as Region).
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import keys from "../../fixtures/edge/keys.json";
import tools from "../../../scripts/conformance/fixtures.js";
import type { ServedTool } from "../../../src/tools/types.js";
import { startProtocolHost, type ProtocolHost } from "../helpers/protocol-host.js";
import { postStateless } from "../helpers/stateless-post.js";
import { startLocalEdge, type LocalEdge } from "../edge/local-edge.js";

const headerTool = tools.find((t) => t.definition.name === "test_header_param")!;
/** Local only: an integer, a boolean and a nested string, each mirrored; nothing required. */
const typedTool: ServedTool = {
  definition: {
    name: "typed_headers",
    description: "Mirrors an integer, a boolean and a nested value.",
    risk: "R0_READ",
    inputSchema: {
      type: "object",
      properties: {
        count: { type: "integer", "x-mcp-header": "Count" },
        dry: { type: "boolean", "x-mcp-header": "Dry-Run" },
        target: { type: "object", properties: { zone: { type: "string", "x-mcp-header": "Zone" } } },
      },
    },
  },
  handler: (a) => ({ ok: true, data: `ran with ${JSON.stringify(a)}` }),
};

let local: ProtocolHost;
let edge: LocalEdge;
beforeAll(async () => {
  [local, edge] = await Promise.all([
    startProtocolHost({}, [headerTool, typedTool]),
    startLocalEdge({ MOTEBIT_AUTH_TOKEN: keys.auth_token, MOTEBIT_RATE_LIMIT: "0" }, { args: ["-c", "scripts/conformance/wrangler.toml"] }),
  ]);
}, 120_000);
afterAll(async () => {
  await Promise.allSettled([local?.close(), edge?.stop()]);
});

const hosts = [
  { host: "motebit-local", url: () => local.http.url },
  { host: "edge", url: () => edge.url },
];

describe.each(hosts)("Mcp-Param-* on $host", ({ url }) => {
  const call = (args: Record<string, unknown>, headers: Record<string, string>) =>
    postStateless(url(), "tools/call", { name: "test_header_param", arguments: args }, { headers });
  const ran = (r: Awaited<ReturnType<typeof call>>) => (r.body.result?.content as { text: string }[] | undefined)?.[0].text;

  it("a header that agrees runs the tool: plain, base64 of the same text, any case of the header name, around whitespace", async () => {
    const agreeing: Record<string, string>[] = [{ "Mcp-Param-Region": "us-west1" }, { "mcp-param-region": " us-west1 " }, { "Mcp-Param-Region": `=?base64?${btoa("us-west1")}?=` }];
    for (const headers of agreeing) {
      const r = await call({ region: "us-west1" }, headers);
      expect([r.status, r.body.error]).toEqual([200, undefined]);
      expect(ran(r)).toMatch(/^region: us-west1\n\[motebit:/);
    }
    // Non-ASCII text can only come base64-encoded, and then it agrees.
    const r = await call({ region: "Zürich" }, { "Mcp-Param-Region": `=?base64?${Buffer.from("Zürich").toString("base64")}?=` });
    expect(ran(r)).toMatch(/^region: Zürich\n/);
  });

  it("a value without the exact sentinel is literal text", async () => {
    for (const v of ["SGVsbG8=", "=?base64?SGVsbG8=", "=?BASE64?SGVsbG8=?="]) {
      const r = await call({ region: v }, { "Mcp-Param-Region": v });
      expect([r.status, ran(r)?.split("\n")[0]]).toEqual([200, `region: ${v}`]);
    }
  });

  it("missing, different, or badly encoded: 400 and -32020, and the tool does not run", async () => {
    const cases: [Record<string, string>, string][] = [
      [{}, "Header mismatch: the Mcp-Param-Region header is required (arguments.region is in the body)"],
      [{ "Mcp-Param-Region": "eu-north1" }, 'Header mismatch: Mcp-Param-Region "eu-north1" but arguments.region is "us-west1"'],
      [{ "Mcp-Param-Region": "=?base64?dXMtd2VzdDE?=" }, "Header mismatch: Mcp-Param-Region carries a malformed base64 sentinel"],
      [{ "Mcp-Param-Region": "=?base64?dXMt!!!d2VzdDE=?=" }, "Header mismatch: Mcp-Param-Region carries a malformed base64 sentinel"],
      [{ "Mcp-Param-Region": `=?base64?${btoa("eu-north1")}?=` }, 'Header mismatch: Mcp-Param-Region "eu-north1" but arguments.region is "us-west1"'],
    ];
    for (const [headers, message] of cases) {
      const r = await call({ region: "us-west1" }, headers);
      expect([r.status, r.body.error?.code, r.body.error?.message]).toEqual([400, -32020, message]);
    }
  });

  it("a header for an argument the body does not carry is refused too", async () => {
    const r = await call({}, { "Mcp-Param-Region": "us-west1" });
    expect([r.status, r.body.error?.code, r.body.error?.message]).toEqual([400, -32020, "Header mismatch: Mcp-Param-Region was sent but arguments.region is absent"]);
  });
});

describe("Mcp-Param-* typed values (motebit-local)", () => {
  const call = (args: Record<string, unknown>, headers: Record<string, string>) =>
    postStateless(local.http.url, "tools/call", { name: "typed_headers", arguments: args }, { headers });

  it("integers compare as numbers, booleans as true/false, nested properties by their path; null and absent expect nothing", async () => {
    const good = await call({ count: 42, dry: false, target: { zone: "b" } }, { "Mcp-Param-Count": "42.0", "Mcp-Param-Dry-Run": "false", "Mcp-Param-Zone": "b" });
    expect([good.status, good.body.error]).toEqual([200, undefined]);
    const none = await call({ count: null }, {});
    expect([none.status, none.body.error]).toEqual([200, undefined]);
  });

  it("a disagreeing integer, boolean or nested value is refused", async () => {
    const cases: [Record<string, unknown>, Record<string, string>, string][] = [
      [{ count: 42 }, { "Mcp-Param-Count": "43" }, 'Mcp-Param-Count "43" but arguments.count is 42'],
      [{ count: 42 }, { "Mcp-Param-Count": "0x2a" }, 'Mcp-Param-Count "0x2a" but arguments.count is 42'],
      [{ dry: true }, { "Mcp-Param-Dry-Run": "True" }, 'Mcp-Param-Dry-Run "True" but arguments.dry is true'],
      [{ target: { zone: "b" } }, {}, "the Mcp-Param-Zone header is required (arguments.target.zone is in the body)"],
    ];
    for (const [args, headers, why] of cases) {
      const r = await call(args, headers);
      expect([r.status, r.body.error?.code, r.body.error?.message]).toEqual([400, -32020, `Header mismatch: ${why}`]);
    }
  });

  it("a 2025-11-25 session sends no such headers and needs none", async () => {
    const client = await local.connect();
    const r = await client.callTool({ name: "test_header_param", arguments: { region: "us-west1" } });
    expect((r.content as { text: string }[])[0].text).toMatch(/^region: us-west1\n/);
  });
});

// Both hosts decode a message with decodeMessage: depth before JSON, JSON before classification, never a throw.
import { describe, expect, it } from "vitest";
import { decodeMessage } from "../../../src/mcp/engine/decode.js";
import { MAX_JSON_DEPTH, tooDeepMessage } from "../../../src/bounded/json-depth.js";
import { nested } from "../../shared/hostile-requests.js";

const PARSE = "Parse error: test";
const utf8 = (s: string) => new TextEncoder().encode(s);

describe("decodeMessage", () => {
  it("refuses a message nested past the limit with -32600, before parsing it", () => {
    const deep = `{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":${nested(MAX_JSON_DEPTH)}`; // not even closed
    const c = decodeMessage(deep, null, PARSE);
    expect(c).toMatchObject({ ok: false, status: 400, notification: false, response: { id: null, error: { code: -32600, message: tooDeepMessage() } } });
  });

  it("answers text that is not JSON with -32700 and the transport's words", () => {
    expect(decodeMessage("{nope", null, PARSE)).toMatchObject({ ok: false, status: 400, response: { id: null, error: { code: -32700, message: PARSE } } });
  });

  it("takes bytes only when they are UTF-8, and text as the transport decoded it", () => {
    const bad = new Uint8Array([...utf8('{"jsonrpc":"2.0","method":"x","params":{"s":"'), 0xff, ...utf8('"}}')]);
    expect(decodeMessage(bad, null, PARSE)).toMatchObject({ ok: false, response: { error: { code: -32700 } } });
    expect(decodeMessage(utf8('{"jsonrpc":"2.0","id":1,"method":"ping"}'), null, PARSE)).toMatchObject({ ok: true, kind: "request" });
  });

  it("classifies what parses: a batch is refused, a notification is told apart", () => {
    expect(decodeMessage("[]", null, PARSE)).toMatchObject({ ok: false, status: 400, response: { error: { code: -32600 } } });
    expect(decodeMessage('{"jsonrpc":"2.0","method":"notifications/initialized"}', null, PARSE)).toMatchObject({ ok: true, kind: "notification", envelope: null });
  });
});

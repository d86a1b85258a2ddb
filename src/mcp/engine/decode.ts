// The one decoder of an incoming message, for every transport: its depth checked on the raw text before anything
// recurses over it (json-depth.ts), then JSON, then the engine's one classification (classify.ts). Framing and the
// size cap stay the transport's (HTTP's body cap, stdio's line cap); both hosts run what they frame through here.
import { fromUtf8 } from "../../protocol/index.js";
import { INVALID_REQUEST, PARSE_ERROR, rpcError } from "../jsonrpc.js";
import { nestsDeeperThan, tooDeepMessage } from "../../bounded/json-depth.js";
import { classifyIncoming, type Classified, type RevisionHeaders } from "./classify.js";

/**
 * One message's text: UTF-8 bytes (an HTTP body: bytes that are not UTF-8 are a parse error) or text the transport
 * has decoded already (a stdin line). `parseError` is what a message that is not JSON is told (id null: none could
 * be read). Never throws.
 */
export function decodeMessage(text: Uint8Array | string, headers: RevisionHeaders, parseError: string): Classified {
  if (nestsDeeperThan(text)) return refused(INVALID_REQUEST, tooDeepMessage());
  let raw: unknown;
  try {
    raw = JSON.parse(typeof text === "string" ? text : fromUtf8(text));
  } catch {
    return refused(PARSE_ERROR, parseError);
  }
  return classifyIncoming(raw, headers);
}

function refused(code: number, message: string): Classified {
  return { ok: false, status: 400, response: rpcError(null, code, message), notification: false };
}

// How a 2026-07-28 answer differs from a session's: every result names its `resultType` and the server in `_meta`,
// results that may be cached say for how long and for whom, and errors carry the HTTP status the revision asks for.
import { INVALID_PARAMS, METHOD_NOT_FOUND, RESOURCE_NOT_FOUND, type JsonRpcResponse } from "../jsonrpc.js";
import { SERVER_INFO } from "../server-info.js";
import { HEADER_MISMATCH, META_SERVER_INFO, MISSING_CLIENT_CAPABILITY } from "./revision.js";

/** Results a client may cache. Everything is per caller (the principal decides what is listed), hence private. */
const CACHEABLE: Record<string, number> = {
  "server/discover": 300_000,
  "tools/list": 60_000,
  "prompts/list": 60_000,
  "resources/list": 60_000,
  "resources/templates/list": 60_000,
  // Resources such as motebit://state change with every call.
  "resources/read": 0,
};

export function statelessHttpStatus(response: JsonRpcResponse): number {
  if (!("error" in response)) return 200;
  if (response.error.code === METHOD_NOT_FOUND) return 404;
  if (response.error.code === MISSING_CLIENT_CAPABILITY || response.error.code === HEADER_MISMATCH) return 400;
  return 200;
}

/** One response of `method` as 2026-07-28 shapes it. */
export function shapeStatelessResponse(method: string, params: Record<string, unknown> | undefined, response: JsonRpcResponse): JsonRpcResponse {
  if ("error" in response) {
    // 2026-07-28 answers an unknown resource with Invalid Params naming the uri (earlier revisions used -32002).
    if (response.error.code === RESOURCE_NOT_FOUND) {
      return { ...response, error: { code: INVALID_PARAMS, message: response.error.message, data: { uri: params?.uri } } };
    }
    return response;
  }
  const result = { ...(response.result as Record<string, unknown>) };
  result.resultType ??= "complete";
  const meta = typeof result._meta === "object" && result._meta !== null ? (result._meta as Record<string, unknown>) : {};
  result._meta = { ...meta, [META_SERVER_INFO]: SERVER_INFO };
  if (result.resultType === "complete" && Object.hasOwn(CACHEABLE, method)) {
    result.ttlMs = CACHEABLE[method];
    result.cacheScope = "private";
  }
  return { ...response, result };
}

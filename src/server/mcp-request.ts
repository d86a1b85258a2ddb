// The stateless half of the Streamable HTTP endpoint: everything decided from the request alone, before any
// state is touched. The result, an McpCall, is what crosses to the stateful half (mcp-endpoint.ts).
import type { RevisionHeaders } from "../mcp/engine/classify.js";
import { decodeMessage } from "../mcp/engine/decode.js";
import { TRANSPORT_ERROR, type PostedMessage } from "../mcp/jsonrpc.js";
import { isSupportedProtocolVersion, SUPPORTED_PROTOCOL_VERSIONS } from "../mcp/protocol-versions.js";
import { isStatelessVersion, type StatelessEnvelope } from "../mcp/stateless/revision.js";
import type { JtiClaim, PeerPrincipal } from "../callers/signed-token.js";
import { readRequestBody } from "./body.js";
import { jsonResponse, rpcErrorResponse } from "./responses.js";
import { echo } from "../bounded/echo.js";
import { traceHeadersOf } from "../telemetry/http-trace-headers.js";
import type { TraceCarrier } from "../telemetry/trace-context.js";

export type ResponseMode = "json" | "sse";

/** One authenticated MCP request, as plain data (it may cross an RPC boundary to the Durable Object). */
export type McpCall = {
  principal: PeerPrincipal;
  /** The signed token's jti to consume, or null for the static token. */
  jti: JtiClaim | null;
  sessionId: string | null;
} & (
  | { method: "DELETE" }
  | ({
      method: "POST";
      mode: ResponseMode;
      /** The client accepts text/event-stream: messages sent before the result may ride on this POST's answer. */
      sse?: boolean;
      /** Set for a 2026-07-28 request: served without a session, from what it declares. */
      stateless?: StatelessEnvelope;
      /** Its MCP-Protocol-Version header, as sent (its span records it). */
      protocolVersion?: string | null;
      /** Its W3C trace context headers, when it sent a traceparent (its span's parent unless `_meta` names one). */
      traceHeaders?: TraceCarrier;
    } & PostedMessage)
);

export type Prepared<T> = { ok: true; value: T } | { ok: false; response: Response };

export const SESSION_HEADER = "Mcp-Session-Id";
export const PROTOCOL_VERSION_HEADER = "MCP-Protocol-Version";
export const METHOD_HEADER = "Mcp-Method";
export const NAME_HEADER = "Mcp-Name";
/** Lower-cased, as Headers iterates names. */
const PARAM_HEADER_PREFIX = "mcp-param-";

/** The q-value the Accept header gives `type`, taken from the most specific range that matches it. */
function acceptQuality(ranges: { type: string; q: number }[], type: string): number {
  const [major] = type.split("/");
  let best = { specificity: -1, q: 0 };
  for (const r of ranges) {
    const specificity = r.type === type ? 2 : r.type === `${major}/*` ? 1 : r.type === "*/*" ? 0 : -1;
    if (specificity > best.specificity) best = { specificity, q: r.q };
  }
  return best.q;
}

function acceptRanges(accept: string): { type: string; q: number }[] {
  return accept.split(",").map((part) => {
    const [type, ...params] = part.split(";");
    const qParam = params.map((p) => p.trim().split("=")).find(([k]) => k.trim().toLowerCase() === "q");
    const q = qParam ? Number(qParam[1]) : 1;
    return { type: type.trim().toLowerCase(), q: Number.isFinite(q) ? q : 0 };
  });
}

/** JSON or SSE, as the client's Accept header prefers (JSON on a tie or no header); null when it takes neither. */
export function responseMode(accept: string | null): ResponseMode | null {
  return negotiate(accept).mode;
}

/**
 * The Accept header read once: the answer's mode, and whether the client takes an SSE stream at all (so messages
 * sent before the result may ride on this POST's answer).
 */
function negotiate(accept: string | null): { mode: ResponseMode | null; sse: boolean } {
  if (accept === null || accept.trim() === "") return { mode: "json", sse: false };
  const ranges = acceptRanges(accept);
  const json = acceptQuality(ranges, "application/json");
  const sse = acceptQuality(ranges, "text/event-stream");
  if (json <= 0 && sse <= 0) return { mode: null, sse: false };
  return { mode: sse > json ? "sse" : "json", sse: sse > 0 };
}

/** 400 for an MCP-Protocol-Version we do not speak; an absent header means 2025-03-26 (MCP spec), which we do. */
export function checkProtocolVersion(headers: Headers): Response | null {
  const v = headers.get(PROTOCOL_VERSION_HEADER);
  if (v === null || isSupportedProtocolVersion(v.trim())) return null;
  return rpcErrorResponse(
    400,
    TRANSPORT_ERROR,
    `Bad Request: unsupported MCP-Protocol-Version "${echo(v)}" (supported: ${SUPPORTED_PROTOCOL_VERSIONS.join(", ")})`,
  );
}

/** application/json (any parameters, any case) or a `+json` type; an absent header is taken as JSON. */
export function isJsonContentType(value: string | null): boolean {
  if (value === null) return true;
  const type = value.split(";")[0].trim().toLowerCase();
  return type === "application/json" || /^application\/[a-z0-9.+-]+\+json$/.test(type);
}

/** The request's `Mcp-Param-{Name}` headers by lower-cased Name (Headers lower-cases names as it iterates; own keys only, so a Name of `__proto__` stays data). */
function paramHeaders(h: Headers): Record<string, string> {
  return Object.fromEntries([...h].filter(([name]) => name.startsWith(PARAM_HEADER_PREFIX)).map(([name, value]) => [name.slice(PARAM_HEADER_PREFIX.length), value]));
}

/** Decodes a POST body and classifies it the engine's one way (src/mcp/engine/decode.ts), against its headers. */
export function parseMessage(bytes: Uint8Array, headers: RevisionHeaders = null): Prepared<PostedMessage & { envelope: StatelessEnvelope | null }> {
  const c = decodeMessage(bytes, headers, "Parse error: the body is not valid UTF-8 JSON");
  if (!c.ok) return { ok: false, response: jsonResponse(c.status, c.response) };
  return { ok: true, value: { kind: c.kind, message: c.message, envelope: c.envelope } as PostedMessage & { envelope: StatelessEnvelope | null } };
}

/** POST /mcp: Accept, protocol version, body cap, JSON, no batch. The caller has already authenticated it. */
export async function preparePost(
  request: Request,
  auth: { principal: PeerPrincipal; jti: JtiClaim | null },
  maxBodyBytes: number,
): Promise<Prepared<McpCall>> {
  const { mode, sse } = negotiate(request.headers.get("Accept"));
  if (mode === null) {
    return { ok: false, response: rpcErrorResponse(406, TRANSPORT_ERROR, "Not Acceptable: accept application/json or text/event-stream") };
  }
  const body = await readRequestBody(request, maxBodyBytes);
  if (!body.ok) {
    const response =
      body.why === "too_large" ? tooLarge(maxBodyBytes) : rpcErrorResponse(400, TRANSPORT_ERROR, "Bad Request: the body ended before it was complete");
    return { ok: false, response };
  }
  // Checked after the body is read, so the answer leaves on a clean connection (see body.ts).
  const contentType = request.headers.get("Content-Type");
  if (!isJsonContentType(contentType)) {
    return {
      ok: false,
      response: rpcErrorResponse(415, TRANSPORT_ERROR, `Unsupported Media Type: send Content-Type: application/json (got "${echo(contentType)}")`),
    };
  }
  // The body says which revision it speaks; a 2026-07-28 request is checked against its headers too.
  const h = request.headers;
  const protocolVersion = h.get(PROTOCOL_VERSION_HEADER);
  // Only a 2026-07-28 request reads Mcp-Param-*, and it is refused without that version in its header: a session's
  // request skips the scan of every header (about 2 µs).
  const params = isStatelessVersion(protocolVersion?.trim()) ? paramHeaders(h) : undefined;
  const parsed = parseMessage(body.bytes, { protocolVersion, method: h.get(METHOD_HEADER), name: h.get(NAME_HEADER), params });
  if (!parsed.ok) return parsed;
  const { envelope, ...posted } = parsed.value;
  if (envelope === null) {
    const badVersion = checkProtocolVersion(h);
    if (badVersion) return { ok: false, response: badVersion };
  }
  return {
    ok: true,
    value: {
      ...auth,
      sessionId: request.headers.get(SESSION_HEADER),
      method: "POST",
      mode,
      sse,
      ...(posted as PostedMessage),
      ...(envelope !== null && { stateless: envelope }),
      protocolVersion,
      ...traceHeadersOf(h),
    },
  };
}

/** DELETE /mcp: ends the session named in Mcp-Session-Id. */
export function prepareDelete(request: Request, auth: { principal: PeerPrincipal; jti: JtiClaim | null }): Prepared<McpCall> {
  const badVersion = checkProtocolVersion(request.headers);
  if (badVersion) return { ok: false, response: badVersion };
  return { ok: true, value: { ...auth, sessionId: request.headers.get(SESSION_HEADER), method: "DELETE" } };
}

export function tooLarge(maxBodyBytes: number): Response {
  return rpcErrorResponse(413, TRANSPORT_ERROR, `Payload Too Large: the body limit is ${maxBodyBytes} bytes`);
}

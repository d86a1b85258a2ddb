// MCP 2026-07-28, the stateless revision: no initialize, no session; every request names its protocol version and
// client capabilities in `_meta` and repeats version, method and name in HTTP headers. This file decides, from one
// request alone, whether it speaks that revision and whether its envelope and headers agree — before any state is
// touched. Older revisions are not this file's business: they keep their sessions.
import { INVALID_PARAMS, type JsonRpcId } from "../jsonrpc.js";
import { isLogLevel, type LogLevel } from "../../tools/log-level.js";
import { echo } from "../../bounded/echo.js";
import type { TraceHeaders } from "../../telemetry/trace-context.js";

/** Revisions served statelessly, newest first. */
export const STATELESS_PROTOCOL_VERSIONS = ["2026-07-28"] as const;

export const META_PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion";
export const META_CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities";
export const META_LOG_LEVEL = "io.modelcontextprotocol/logLevel";
export const META_SERVER_INFO = "io.modelcontextprotocol/serverInfo";

/** A header disagrees with the body, or a required header is missing. */
export const HEADER_MISMATCH = -32020;
/** The request needs a capability the client did not declare in its `_meta`. */
export const MISSING_CLIENT_CAPABILITY = -32021;
/** The request names a protocol version this server does not speak. */
export const UNSUPPORTED_PROTOCOL_VERSION = -32022;

/** Methods of earlier revisions that 2026-07-28 removed: answered 404 / -32601 like any unknown method. */
export const REMOVED_METHODS: ReadonlySet<string> = new Set(["initialize", "ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe"]);

/** What one stateless request declared about itself. Plain data: it crosses to the Durable Object. */
export interface StatelessEnvelope {
  protocolVersion: string;
  clientCapabilities: Record<string, unknown>;
  /** notifications/message are sent only when the request asked for them with a level. */
  logLevel: LogLevel | null;
  /**
   * Over HTTP: the request's `Mcp-Param-{Name}` headers, by lower-cased Name, checked at tools/call against the
   * arguments its tool marks `x-mcp-header` (param-headers.ts). Absent over stdio, which has no headers.
   */
  paramHeaders?: Record<string, string>;
  /** A task's, kept with it (never read from the wire): the trace context of the request that started it. */
  trace?: TraceHeaders;
}

export interface RevisionRefusal {
  status: number;
  id: JsonRpcId | null;
  code: number;
  message: string;
  data?: unknown;
}

export type Revision = { stateless: false } | { stateless: true; envelope: StatelessEnvelope } | { refused: RevisionRefusal };

const BASE64_SENTINEL = /^=\?base64\?(.*)\?=$/;
const CANONICAL_BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

export function isStatelessVersion(v: unknown): boolean {
  return typeof v === "string" && (STATELESS_PROTOCOL_VERSIONS as readonly string[]).includes(v);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/** The body field an `Mcp-Name` header mirrors, for the methods that have one. */
export function mcpNameSource(method: string, params: Record<string, unknown> | undefined): { field: string; value: unknown } | null {
  if (method === "tools/call" || method === "prompts/get") return { field: "name", value: params?.name };
  if (method === "resources/read") return { field: "uri", value: params?.uri };
  if (method === "tasks/get" || method === "tasks/update" || method === "tasks/cancel") return { field: "taskId", value: params?.taskId };
  return null;
}

/** An `Mcp-Name` or `Mcp-Param-*` value: as sent, or the UTF-8 text inside a `=?base64?…?=` sentinel; null when that sentinel is malformed. */
export function decodeHeaderValue(raw: string): string | null {
  const m = BASE64_SENTINEL.exec(raw);
  if (!m) return raw;
  if (!CANONICAL_BASE64.test(m[1])) return null;
  try {
    const bin = atob(m[1]);
    return new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(bin, (ch) => ch.charCodeAt(0)));
  } catch {
    return null;
  }
}

/**
 * A mirrored header's value (`Mcp-Name`, `Mcp-Param-*`) as the body would hold it: trimmed of optional whitespace and
 * decoded from its sentinel; or why it cannot be. Hosts read raw header bytes differently (Node as latin1, workerd as
 * UTF-8): a value that is not plain ASCII must come in the sentinel form, so raw non-ASCII is refused the same way on both.
 */
export function readMirroredHeader(header: string, raw: string): { ok: true; value: string } | { ok: false; why: string } {
  if (/[^\t\x20-\x7e]/.test(raw)) return { ok: false, why: `${header} carries raw non-ASCII bytes (send such a value as =?base64?…?=)` };
  const value = decodeHeaderValue(raw.trim());
  return value === null ? { ok: false, why: `${header} carries a malformed base64 sentinel` } : { ok: true, value };
}

/** HTTP's headers that a 2026-07-28 request repeats from its body. */
export interface MirroredHeaders {
  protocolVersion: string | null;
  method: string | null;
  name: string | null;
  /** `Mcp-Param-{Name}` values by lower-cased Name (only tools/call reads them, once the tool is known). */
  params?: Record<string, string>;
}

/**
 * Which revision one decoded message speaks. The body decides (a proxy that strips a header must not change the
 * revision); the headers must then agree with it. `headerVersion`: MCP-Protocol-Version, or null when absent.
 */
export function classifyRevision(
  kind: "request" | "notification" | "response",
  message: { id?: JsonRpcId; method?: string; params?: Record<string, unknown> },
  /** HTTP's headers; null over stdio, which has none to agree with. */
  httpHeaders: MirroredHeaders | null,
): Revision {
  const headers = httpHeaders ?? { protocolVersion: null, method: null, name: null };
  if (kind === "response") return { stateless: false };
  const id = kind === "request" ? (message.id ?? null) : null;
  const method = message.method ?? "";
  const refuse = (status: number, code: number, text: string, data?: unknown): Revision => ({
    refused: { status, id, code, message: text, ...(data !== undefined && { data }) },
  });
  const meta = isObject(message.params?._meta) ? message.params._meta : null;
  const claims = meta !== null && (META_PROTOCOL_VERSION in meta || META_CLIENT_CAPABILITIES in meta);
  const headerStateless = headers.protocolVersion !== null && isStatelessVersion(headers.protocolVersion);

  if (!claims) {
    if (!headerStateless) return { stateless: false };
    if (method === "initialize") return refuse(400, HEADER_MISMATCH, `Header mismatch: initialize (a session handshake) sent with MCP-Protocol-Version ${echo(headers.protocolVersion)}`);
    if (kind === "notification") return { stateless: true, envelope: { protocolVersion: headers.protocolVersion!, clientCapabilities: {}, logLevel: null } };
    const missing = meta === null ? "_meta" : `${META_PROTOCOL_VERSION}, ${META_CLIENT_CAPABILITIES}`;
    return refuse(400, INVALID_PARAMS, `Invalid params: protocol ${echo(headers.protocolVersion)} needs ${missing} on every request`);
  }

  const version = meta[META_PROTOCOL_VERSION];
  const caps = meta[META_CLIENT_CAPABILITIES];
  if (typeof version !== "string" || version === "") return refuse(400, INVALID_PARAMS, `Invalid params: _meta needs a string ${META_PROTOCOL_VERSION}`);
  if (kind === "request" && !isObject(caps)) return refuse(400, INVALID_PARAMS, `Invalid params: _meta needs an object ${META_CLIENT_CAPABILITIES}`);
  if (headers.protocolVersion !== null && headers.protocolVersion.trim() !== version) {
    return refuse(400, HEADER_MISMATCH, `Header mismatch: MCP-Protocol-Version ${echo(headers.protocolVersion)} but _meta names ${echo(version)}`);
  }
  if (headers.method !== null && headers.method.trim() !== method) {
    return refuse(400, HEADER_MISMATCH, `Header mismatch: Mcp-Method ${echo(headers.method)} but the body names ${echo(method)}`);
  }
  if (!isStatelessVersion(version)) {
    return refuse(400, UNSUPPORTED_PROTOCOL_VERSION, `Unsupported protocol version ${echo(version)}`, {
      supported: [...STATELESS_PROTOCOL_VERSIONS],
      requested: echo(version),
    });
  }
  const rawLevel = meta[META_LOG_LEVEL];
  const envelope: StatelessEnvelope = { protocolVersion: version, clientCapabilities: isObject(caps) ? caps : {}, logLevel: isLogLevel(rawLevel) ? rawLevel : null };
  if (kind === "notification") return { stateless: true, envelope };

  // Every HTTP request repeats version and method in headers (and the name, for the methods that have one).
  if (httpHeaders === null) return { stateless: true, envelope };
  if (headers.protocolVersion === null) return refuse(400, HEADER_MISMATCH, "Header mismatch: the MCP-Protocol-Version header is required");
  if (headers.method === null) return refuse(400, HEADER_MISMATCH, "Header mismatch: the Mcp-Method header is required");
  const source = mcpNameSource(method, message.params);
  if (source !== null && typeof source.value === "string") {
    if (headers.name === null) return refuse(400, HEADER_MISMATCH, `Header mismatch: the Mcp-Name header is required (params.${source.field})`);
    const read = readMirroredHeader("Mcp-Name", headers.name);
    if (!read.ok) return refuse(400, HEADER_MISMATCH, `Header mismatch: ${read.why}`);
    if (read.value !== source.value) return refuse(400, HEADER_MISMATCH, `Header mismatch: Mcp-Name ${JSON.stringify(echo(read.value))} but params.${source.field} is ${JSON.stringify(echo(source.value))}`);
  }
  return { stateless: true, envelope: { ...envelope, paramHeaders: headers.params ?? {} } };
}

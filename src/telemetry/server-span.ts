// The SERVER span of one MCP request or notification, by the MCP semantic conventions (OpenTelemetry GenAI, "mcp"):
// named `{mcp.method.name} {target}`, parented by the trace context in `params._meta` (else the HTTP header, which
// is then linked too), with mcp.server.operation.duration recorded as it ends. Every message of both hosts passes
// here (Motebit.handleClassified), so this is the one place a request's span begins.
import { SpanKind, SpanStatusCode, trace, ROOT_CONTEXT, type Attributes, type Link, type Span } from "@opentelemetry/api";
import { principalLabel, type Principal } from "../principal.js";
import type { TelemetryPort } from "./port.js";
import type { RequestTransport } from "./request-transport.js";
import { contextFrom, type TraceCarrier } from "./trace-context.js";
import { failSpan, type TraceScope } from "./trace-scope.js";
import { instrumentsOf } from "./instruments.js";

/** A classified request or notification, as much of it as the span reads. */
export interface TracedMessage {
  kind: string;
  message: unknown;
}

/** A JSON-RPC answer, as much of it as the span reads. */
type Answer = { result: unknown } | { error: { code: number; message: string } };

/** A caller's name for a tool or prompt, cut as the audit log cuts it. */
const MAX_NAME = 200;
const METHOD_NOT_FOUND = "-32601";

type Wire = { id?: unknown; method?: unknown; params?: { name?: unknown; protocolVersion?: unknown; _meta?: TraceCarrier } };

export interface ServedCall {
  principal: Principal;
  transport?: RequestTransport;
  /** A 2026-07-28 request's version (its `_meta`); null in a session. */
  statelessVersion: string | null;
}

/** Runs one message under its SERVER span; a client's answer to our request (kind "response") runs untraced. */
export async function serveTraced<R extends Answer | null>(port: TelemetryPort, posted: TracedMessage, call: ServedCall, run: (scope: TraceScope | undefined) => Promise<R>): Promise<R> {
  if (posted.kind === "response") return run(undefined);
  const started = performance.now();
  const wire = posted.message as Wire;
  const method = typeof wire.method === "string" ? wire.method : "unknown";
  const params = typeof wire.params === "object" && wire.params !== null ? wire.params : undefined;
  const attributes = requestAttributes(method, wire, params, call);
  const target = (attributes["gen_ai.tool.name"] ?? attributes["gen_ai.prompt.name"]) as string | undefined;
  const fromMeta = contextFrom(params?._meta);
  const fromHeader = call.transport?.headers === undefined ? null : contextFrom(call.transport.headers);
  const links: Link[] = fromMeta !== null && fromHeader !== null ? [{ context: trace.getSpanContext(fromHeader)! }] : [];
  const parent = fromMeta ?? fromHeader ?? ROOT_CONTEXT;
  const span = port.tracer.startSpan(target === undefined ? method : `${method} ${target}`, { kind: SpanKind.SERVER, attributes, links }, parent);
  let errorType: string | undefined;
  try {
    const answer = await run({ port, context: trace.setSpan(parent, span) });
    errorType = answer === null ? undefined : describeAnswer(span, answer);
    return answer;
  } catch (e) {
    failSpan(span, e);
    errorType = e instanceof Error ? e.constructor.name : "_OTHER";
    throw e;
  } finally {
    span.end();
    instrumentsOf(port).operationDuration.record((performance.now() - started) / 1000, metricAttributes(attributes, errorType));
  }
}

function requestAttributes(method: string, wire: Wire, params: Wire["params"], call: ServedCall): Attributes {
  const a: Attributes = { "mcp.method.name": method, "motebit.caller": principalLabel(call.principal) };
  // Unknown for an MCP task's background run (its request's transport is gone).
  if (call.transport !== undefined) a["network.transport"] = call.transport.network;
  if (method === "tools/call" && typeof params?.name === "string") {
    a["gen_ai.tool.name"] = params.name.slice(0, MAX_NAME);
    a["gen_ai.operation.name"] = "execute_tool";
  }
  if (method === "prompts/get" && typeof params?.name === "string") a["gen_ai.prompt.name"] = params.name.slice(0, MAX_NAME);
  if (typeof wire.id === "string" || typeof wire.id === "number") a["jsonrpc.request.id"] = String(wire.id);
  const session = call.transport?.sessionId;
  if (typeof session === "string") a["mcp.session.id"] = session;
  const version = call.statelessVersion ?? call.transport?.protocolVersion ?? (method === "initialize" ? params?.protocolVersion : undefined);
  if (typeof version === "string") a["mcp.protocol.version"] = version;
  if (call.transport?.network === "tcp") a["network.protocol.name"] = "http";
  return a;
}

/** error.type and rpc.response.status_code for a JSON-RPC error, `tool_error` for a CallToolResult with isError. */
function describeAnswer(span: Span, answer: Answer): string | undefined {
  if ("error" in answer) {
    const code = String(answer.error.code);
    span.setAttributes({ "error.type": code, "rpc.response.status_code": code });
    // The code, not JSONRPCError.message: messages may echo a caller's input.
    span.setStatus({ code: SpanStatusCode.ERROR, message: code });
    return code;
  }
  const result = answer.result as { isError?: unknown } | null;
  if (typeof result === "object" && result !== null && result.isError === true) {
    span.setAttribute("error.type", "tool_error");
    span.setStatus({ code: SpanStatusCode.ERROR, message: "tool_error" });
    return "tool_error";
  }
  return undefined;
}

/**
 * The duration's attributes: the span's low-cardinality ones (no request id, session or caller). A name the call
 * was refused over (a JSON-RPC error) is left out, so a caller inventing names cannot grow the series.
 */
function metricAttributes(a: Attributes, errorType: string | undefined): Attributes {
  const rpcError = errorType !== undefined && /^-?\d+$/.test(errorType);
  // A method this server does not have is any string a caller sent: one series for all of them.
  const method = errorType === METHOD_NOT_FOUND ? "_OTHER" : a["mcp.method.name"];
  const m: Attributes = { "mcp.method.name": method };
  // initialize's version is the client's proposal, any string; the others were checked against the supported ones.
  const version = method === "initialize" ? [] : ["mcp.protocol.version"];
  const kept = [...version, "network.transport", "network.protocol.name", ...(rpcError ? [] : ["gen_ai.tool.name", "gen_ai.prompt.name", "gen_ai.operation.name"])];
  for (const k of kept) if (a[k] !== undefined) m[k] = a[k];
  if (errorType !== undefined) m["error.type"] = errorType;
  if (rpcError) m["rpc.response.status_code"] = errorType;
  return m;
}

// One SERVER span per request the Worker answers, by the HTTP conventions: method, route, path (never the query:
// OAuth codes travel there), status. Its parent is the caller's `traceparent` header; the request goes on to the app
// (and so to the motebit's object) carrying this span's own traceparent, so the object's spans are its children. The
// spans are posted in ctx.waitUntil, after the response is returned.
import { context, ROOT_CONTEXT, SpanKind, SpanStatusCode, trace } from "@opentelemetry/api";
import { W3CTraceContextPropagator } from "@opentelemetry/core";
import type { EdgeTelemetry } from "../durable-objects/otlp-fetch.js";

const w3c = new W3CTraceContextPropagator();
const fromHeaders = { get: (h: Headers, k: string) => h.get(k) ?? undefined, keys: (h: Headers) => [...h.keys()] };
const intoHeaders = { set: (h: Headers, k: string, v: string) => h.set(k, v) };

/** Low-cardinality routes: a fleet motebit's name is a parameter. */
function route(path: string): string {
  return path.replace(/^\/m\/[^/]+/, "/m/{name}");
}

export async function serveTraced(t: EdgeTelemetry, request: Request, ctx: ExecutionContext, next: (r: Request) => Response | Promise<Response>): Promise<Response> {
  const url = new URL(request.url);
  const parent = w3c.extract(ROOT_CONTEXT, request.headers, fromHeaders);
  const httpRoute = route(url.pathname);
  const span = t.port.tracer.startSpan(
    `${request.method} ${httpRoute}`,
    { kind: SpanKind.SERVER, attributes: { "http.request.method": request.method, "http.route": httpRoute, "url.path": url.pathname, "url.scheme": url.protocol.replace(":", "") } },
    parent,
  );
  const headers = new Headers(request.headers);
  w3c.inject(trace.setSpan(context.active(), span), headers, intoHeaders);
  try {
    const response = await next(new Request(request, { headers }));
    span.setAttribute("http.response.status_code", response.status);
    if (response.status >= 500) span.setAttributes({ "error.type": String(response.status) }).setStatus({ code: SpanStatusCode.ERROR });
    return response;
  } catch (e) {
    span.setAttribute("error.type", (e as Error)?.name ?? "Error").setStatus({ code: SpanStatusCode.ERROR });
    throw e;
  } finally {
    span.end();
    ctx.waitUntil(t.flush());
  }
}

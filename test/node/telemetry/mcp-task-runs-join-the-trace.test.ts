// A 2026-07-28 call started as an MCP task returns its handle at once and runs later, apart from its request: the
// run's server span still joins the request's trace, as a child of the request's span.
import { SpanKind } from "@opentelemetry/api";
import { afterEach, expect, it } from "vitest";
import { makeMotebit, peer } from "../helpers/motebit.js";
import { statelessBody, TASKS } from "../../shared/stateless-request.js";
import { waitFor } from "../../shared/wait-for.js";
import { inMemoryOtel, parentOf, type InMemoryOtel } from "./in-memory-otel.js";

const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";

let otel: InMemoryOtel;
afterEach(() => otel?.shutdown());

it("the task's run is a server span in the starting request's trace, under its span", async () => {
  otel = inMemoryOtel();
  const h = await makeMotebit({ telemetry: otel.port });
  const params = { name: "motebit_task", arguments: { prompt: "hi", required_capabilities: ["echo"] }, _meta: { traceparent: `00-${TRACE_ID}-00f067aa0ba902b7-01` } };
  const handle = (await h.receive(statelessBody("tools/call", params, { caps: TASKS }), peer())) as { result: { resultType: string } };
  expect(handle.result.resultType).toBe("task");
  const servers = await waitFor("the task's run to end", async () => {
    const s = (await otel.spans()).filter((x) => x.name === "tools/call motebit_task");
    return s.length === 2 && (await otel.spans()).some((x) => x.name === "sign_receipt") ? s : undefined;
  });
  const [request, run] = servers.sort((a, b) => (a.attributes["jsonrpc.request.id"] === "1" ? -1 : b.attributes["jsonrpc.request.id"] === "1" ? 1 : 0));
  expect(run.kind).toBe(SpanKind.SERVER);
  expect(run.attributes["jsonrpc.request.id"]).toMatch(/^task:/);
  expect(request.spanContext().traceId).toBe(TRACE_ID);
  expect(run.spanContext().traceId).toBe(TRACE_ID);
  expect(parentOf(run)).toBe(request.spanContext().spanId);
  expect((await otel.span("sign_receipt")).spanContext().traceId).toBe(TRACE_ID);
});

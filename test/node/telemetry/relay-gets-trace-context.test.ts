// A task the relay forwarded reads its record back from the relay; that request carries the task's trace context,
// so the relay's side of it joins the same trace.
import { afterEach, expect, it } from "vitest";
import { makeMotebit, relayPeer } from "../helpers/motebit.js";
import { RelayClient } from "../../../src/relay/client.js";
import { relayTaskLookup } from "../../../src/relay/task-lookup.js";
import { createSigner } from "../../../src/protocol/index.js";
import { inMemoryOtel, type InMemoryOtel } from "./in-memory-otel.js";

const TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736";
const TRACEPARENT = `00-${TRACE_ID}-00f067aa0ba902b7-01`;

let otel: InMemoryOtel;
afterEach(() => otel?.shutdown());

it("the relay's task lookup is sent the traceparent of the task's span", async () => {
  otel = inMemoryOtel();
  const h = await makeMotebit({ telemetry: otel.port });
  const sent: Headers[] = [];
  const client = new RelayClient({
    syncUrl: "http://relay.test",
    clock: { now: () => Date.now() },
    auth: { apiToken: null, motebitId: h.m.motebitId, deviceId: "d", signer: await createSigner("11".repeat(32)) },
    fetch: async (_url, init) => {
      sent.push(new Headers(init?.headers));
      return new Response(JSON.stringify({ task: { required_capabilities: ["echo"] } }), { status: 200 });
    },
  });
  h.m.relayTaskLookup = relayTaskLookup(client, h.m.motebitId);
  await h.rpc(relayPeer, "tools/call", { name: "motebit_task", arguments: { prompt: "hi", relay_task_id: "t-1" }, _meta: { traceparent: TRACEPARENT } });
  const task = await otel.span("execute_tool motebit_task");
  expect(sent.map((s) => s.get("traceparent"))).toEqual([`00-${TRACE_ID}-${task.spanContext().spanId}-01`]);
});

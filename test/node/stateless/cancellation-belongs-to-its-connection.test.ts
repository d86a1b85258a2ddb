// A 2026-07-28 request over HTTP has no session: only its own connection can cancel it. Every static-token client
// is the same caller, so a notifications/cancelled from another POST naming the same id must not reach it
// (issue 19 item 7); closing the request's own connection does.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ServedTool } from "../../../src/tools/types.js";
import { startProtocolHost, type ProtocolHost } from "../helpers/protocol-host.js";
import { fetchStateless } from "../helpers/stateless-post.js";
import { waitFor } from "../../shared/wait-for.js";

const ended: string[] = [];

// Reports progress once (so an SSE answer opens), then waits until aborted or 1.5 s have passed.
const tickThenWait: ServedTool = {
  definition: { name: "tick_then_wait", description: "Progress, then a wait.", inputSchema: { type: "object", properties: { label: { type: "string" } }, required: ["label"] }, risk: "R0_READ" },
  handler: (args, ctx) =>
    new Promise((resolve) => {
      ctx.progress(1, 2, "waiting");
      const t = setTimeout(() => (ended.push(`${args.label}:finished`), resolve({ ok: true, data: "finished" })), 1_500);
      ctx.signal.addEventListener("abort", () => (clearTimeout(t), ended.push(`${args.label}:aborted`), resolve({ ok: false, error: "aborted" })), { once: true });
    }),
};

let host: ProtocolHost;
beforeAll(async () => void (host = await startProtocolHost({}, [tickThenWait])));
afterAll(async () => host?.close());

const call = (label: string, accept: string, signal?: AbortSignal) =>
  fetchStateless(host.http.url, "tools/call", { name: "tick_then_wait", arguments: { label }, _meta: { progressToken: "p" } }, { id: 7, accept, signal });

describe("2026-07-28 cancellation over HTTP", () => {
  it("another client with the same static token cannot cancel the request by its id", async () => {
    const running = call("theirs", "application/json");
    await new Promise((r) => setTimeout(r, 200));
    const cancel = await fetchStateless(host.http.url, "notifications/cancelled", { requestId: 7, reason: "not yours" }, { id: null });
    expect(cancel.status).toBe(202);
    const body = (await (await running).json()) as { result: { content: { text: string }[] } };
    expect(body.result.content[0].text).toMatch(/^finished/);
    expect(ended).toContain("theirs:finished");
  });

  it("closing its own connection cancels it", async () => {
    const drop = new AbortController();
    const res = await call("mine", "text/event-stream", drop.signal);
    const reader = res.body!.getReader();
    await reader.read(); // the progress event: the answer is a stream now
    drop.abort();
    await waitFor("the tool to see its connection close", () => ended.includes("mine:aborted"), 5_000);
  });
});

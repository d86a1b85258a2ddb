// 2026-07-28 has no server-to-client requests: a tool that asks the client's user or model ends its call with an
// input-required result and a request state signed with this motebit's key; the retry carries the answers and the
// state. The same tools ask over the session channel on 2025-11-25.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProtocolHost, type ProtocolHost } from "../helpers/protocol-host.js";
import { postStateless } from "../helpers/stateless-post.js";

let host: ProtocolHost;
beforeAll(async () => void (host = await startProtocolHost()));
afterAll(async () => host?.close());

const call = (name: string, extra: Record<string, unknown> = {}, caps: Record<string, unknown> = { elicitation: {}, sampling: {} }) =>
  postStateless(host.http.url, "tools/call", { name, arguments: {}, ...extra }, { caps });

describe("input-required results (2026-07-28)", () => {
  it("an elicitation becomes an input-required result; the retry with the answer and the state completes, tagged", async () => {
    const first = await call("ask_user");
    const r1 = first.body.result!;
    expect(r1.resultType).toBe("input_required");
    expect(r1.inputRequests).toEqual({
      "elicitation/create#0": {
        method: "elicitation/create",
        params: { message: "Favourite colour?", requestedSchema: { type: "object", properties: { colour: { type: "string" } } } },
      },
    });
    expect(typeof r1.requestState).toBe("string");
    const second = await call("ask_user", { inputResponses: { "elicitation/create#0": { action: "accept", content: { colour: "teal" } } }, requestState: r1.requestState });
    const r2 = second.body.result!;
    expect(r2.resultType).toBe("complete");
    expect((r2.content as { text: string }[])[0].text).toMatch(/^accept:teal\n\[motebit:/);
  });

  it("sampling works the same way", async () => {
    const r1 = (await call("ask_model")).body.result!;
    expect(Object.values(r1.inputRequests as object).map((x: { method: string }) => x.method)).toEqual(["sampling/createMessage"]);
    const answer = { role: "assistant", content: { type: "text", text: "4" }, model: "m", stopReason: "endTurn" };
    const r2 = (await call("ask_model", { inputResponses: { "sampling/createMessage#0": answer }, requestState: r1.requestState })).body.result!;
    expect((r2.content as { text: string }[])[0].text).toMatch(/^model said 4\n/);
  });

  it("a tampered, truncated, forged or foreign state is refused with -32602", async () => {
    const r1 = (await call("ask_user")).body.result!;
    const state = r1.requestState as string;
    const answers = { inputResponses: { "elicitation/create#0": { action: "accept", content: { colour: "red" } } } };
    const [body, sig] = state.split(".");
    const forged = JSON.parse(Buffer.from(body, "base64url").toString());
    forged.answers = { "elicitation/create#0": { action: "accept", content: { colour: "forged" } } };
    const tampered = `${Buffer.from(JSON.stringify(forged)).toString("base64url")}.${sig}`;
    for (const requestState of [tampered, `${state}x`, "nonsense", `${body}.${"A".repeat(86)}`]) {
      const r = await call("ask_user", { ...answers, requestState });
      expect([r.status, r.body.error?.code]).toEqual([200, -32602]);
      expect(r.body.error!.message).toMatch(/^Invalid requestState/);
    }
    // The genuine signature re-spelt with padding is a second encoding of the same bytes: refused too.
    const padded = await call("ask_user", { ...answers, requestState: `${state}==` });
    expect([padded.status, padded.body.error?.code]).toEqual([200, -32602]);
    expect(padded.body.error!.message).toMatch(/^Invalid requestState: its signature does not verify/);
    // A genuine state for another tool is not this call's.
    const other = await call("ask_model", { requestState: state });
    expect(other.body.error!.message).toMatch(/belongs to another call/);
  });

  it("a tool that needs a capability the client did not declare is -32021 with HTTP 400", async () => {
    const r = await call("ask_model", {}, {});
    expect([r.status, r.body.error?.code, r.body.error?.data]).toEqual([400, -32021, { requiredCapabilities: { sampling: {} } }]);
  });

  it("answers to questions not asked are ignored; malformed inputResponses are -32602", async () => {
    const r1 = (await call("ask_user")).body.result!;
    const extra = await call("ask_user", { inputResponses: { unrelated: { action: "accept" } }, requestState: r1.requestState });
    expect(extra.body.result!.resultType).toBe("input_required");
    const bad = await call("ask_user", { inputResponses: { "elicitation/create#0": "yes" }, requestState: r1.requestState });
    expect(bad.body.error?.code).toBe(-32602);
  });
});

// At the edge too, a 2026-07-28 request has no session: a notifications/cancelled from another POST, with the same
// static token and the same id, does not reach it (issue 19 item 7).
import { expect, it } from "vitest";
import { postStateless } from "./helpers.js";

it("another static-token client cannot cancel a stateless request by its id", async () => {
  const running = postStateless("tools/call", { name: "slow", arguments: { ms: 800 } }, { id: 7 });
  await new Promise((r) => setTimeout(r, 200));
  const cancel = await postStateless("notifications/cancelled", { requestId: 7, reason: "not yours" }, { id: null });
  expect(cancel.status).toBe(202);
  const body = (await (await running).json()) as { result: { content: { text: string }[]; isError?: boolean } };
  expect(body.result.isError).not.toBe(true);
  expect(body.result.content[0].text).toMatch(/^waited 800ms/);
});

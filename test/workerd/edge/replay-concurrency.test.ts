// The jti check-and-insert is atomic in the object: N concurrent uses of one token, exactly one success.
import { expect, it } from "vitest";
import { INITIALIZE, post, signedAuth } from "./helpers.js";
import { tokenHint } from "../../../src/callers/token-hints.js";

it("20 concurrent requests carrying the same token yield exactly one 200", async () => {
  const auth = await signedAuth("known_caller");
  const responses = await Promise.all(Array.from({ length: 20 }, () => post(INITIALIZE, { auth })));
  const statuses = responses.map((r) => r.status);
  expect(statuses.filter((s) => s === 200)).toHaveLength(1);
  expect(statuses.filter((s) => s === 401)).toHaveLength(19);
  for (const r of responses.filter((r) => r.status === 401)) {
    expect(await r.json()).toEqual({ error: "invalid motebit token", reason: "jti_replayed", hint: tokenHint("jti_replayed") });
  }
});

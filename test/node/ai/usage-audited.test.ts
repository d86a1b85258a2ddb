import { expect, it } from "vitest";
import { peer } from "../helpers/motebit.js";
import { USAGE_PER_CALL } from "../helpers/scripted-llm.js";
import { principalLabel } from "../../../src/principal.js";
import { aiMotebit, aiTask } from "./ai-fixture.js";

it("each AI turn leaves one audit row with its token usage and denials, beside a row per tool call", async () => {
  const { h } = await aiMotebit([
    { tools: [{ name: "echo", input: { text: "a" } }, { name: "nope", input: {} }] },
    { tools: [{ name: "word_count", input: { text: "a b" } }] },
    "done",
  ]);
  const p = peer();
  await aiTask(h, p, { prompt: "x" });
  const rows = h.m.audit.list();
  const turn = rows.find((r) => r.tool === "model:scripted:scripted-test-model")!;
  expect(turn.caller).toBe(principalLabel(p));
  expect(turn.outcome).toBe("allowed");
  expect(turn.turn).toEqual({ inputTokens: 3 * USAGE_PER_CALL.input, outputTokens: 3 * USAGE_PER_CALL.output, denials: 1 });
  expect(rows.filter((r) => r.tool === "echo" || r.tool === "word_count").map((r) => r.outcome)).toEqual(["allowed", "allowed"]);
  // Tool rows and the motebit_task row itself carry no usage.
  expect(rows.find((r) => r.tool === "echo")?.turn).toBeUndefined();
});

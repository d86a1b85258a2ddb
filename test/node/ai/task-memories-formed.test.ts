// motebit_task in AI mode forms memories like motebit_query: the facts the model marks are kept under the identity
// file's governance, in the caller's scope. The receipt's memories_formed counts them for the owner's turn (stdio);
// a peer's turn may leave peer-marked memories behind, but its receipt says 0.
import { expect, it } from "vitest";
import { owner, peer } from "../helpers/motebit.js";
import { verifyReceipt } from "../../../src/protocol/index.js";
import { memoryScopeOf } from "../../../src/memory/scope.js";
import { aiMotebit, aiTask } from "./ai-fixture.js";

const ANSWER = "Done.\nMEMORY (0.9): The deploy key rotates every 90 days\nMEMORY (0.1): too unsure to keep\nMEMORY: api_key=sk-live-abcdef0123456789abcdef";

it("an owner's task counts the memories its turn formed, and the result keeps only the answer", async () => {
  const { h, llm } = await aiMotebit([ANSWER]);
  const r = await aiTask(h, owner, { prompt: "note the rotation policy" });
  expect(r).toMatchObject({ status: "completed", result: "Done.", memories_formed: 1 });
  expect((await verifyReceipt(r)).valid).toBe(true);
  const stored = h.m.memory.list();
  expect(stored.map((s) => [s.content, s.provenance])).toEqual([["The deploy key rotates every 90 days", "owner"]]);
  expect(JSON.stringify(llm.seen[0].prompt)).toContain("MEMORY (<confidence 0-1>)");
});

it("a peer's task reports 0 whatever its turn formed, and what it formed is the peer's, not the owner's", async () => {
  const { h } = await aiMotebit([ANSWER]);
  const r = await aiTask(h, peer(), { prompt: "note the rotation policy" });
  expect(r).toMatchObject({ status: "completed", result: "Done.", memories_formed: 0 });
  const stored = h.m.memory.list();
  expect(stored).toHaveLength(1);
  expect(stored[0].provenance).toBe("peer_agent");
  expect(stored[0].scope).toBe(memoryScopeOf(peer()));
  expect(stored[0].scope).not.toBe(memoryScopeOf(owner));
});

// Memory edges come from real turns: a memory a motebit_query turn forms is linked ("informed_by", weighted by
// similarity) to each memory recalled into that turn, so the exported graph says what it was formed from.
import { expect, it } from "vitest";
import { owner, peer } from "../helpers/motebit.js";
import { aiMotebit } from "./ai-fixture.js";

it("an owner's query links the memory it forms to the memories it recalled", async () => {
  const { h } = await aiMotebit(["Rotation is quarterly.\nMEMORY (0.9): The deploy key rotation is quarterly"]);
  await h.call(owner, "motebit_remember", { content: "The deploy key rotates every 90 days", sensitivity: "none" });
  const [recalled] = h.m.memory.list();
  const r = await h.call(owner, "motebit_query", { message: "How often does the deploy key rotate?" });
  expect(r.isError).toBeFalsy();
  const formed = h.m.memory.list().find((n) => n.content === "The deploy key rotation is quarterly")!;
  const edges = h.m.memory.edges(formed.node_id);
  expect(edges).toHaveLength(1);
  expect(edges[0]).toMatchObject({ from_id: formed.node_id, to_id: recalled.node_id, relation: "informed_by" });
  expect(edges[0].weight).toBeGreaterThan(0);
  expect(h.m.memory.exportAll().find((n) => n.node_id === formed.node_id)?.edges).toHaveLength(1);
});

it("a peer's query recalls none of the owner's memories, so its memories link to none of them", async () => {
  const { h } = await aiMotebit(["Noted.\nMEMORY (0.9): The deploy key rotation is quarterly"]);
  await h.call(owner, "motebit_remember", { content: "The deploy key rotates every 90 days", sensitivity: "none" });
  await h.call(peer(), "motebit_query", { message: "How often does the deploy key rotate?" });
  const formed = h.m.memory.list().find((n) => n.content === "The deploy key rotation is quarterly")!;
  expect(formed.provenance).toBe("peer_agent");
  expect(h.m.memory.edges(formed.node_id)).toEqual([]);
});

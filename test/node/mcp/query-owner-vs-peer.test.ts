import { describe, expect, it } from "vitest";
import { makeMotebit, owner, peer } from "../helpers/motebit.js";
import { ScriptedLlm } from "../helpers/scripted-llm.js";
import { stripIdentityTag } from "../../../src/protocol/index.js";

const parse = (t: string) => JSON.parse(stripIdentityTag(t));

describe("motebit_query: whose turn it is depends on who asks", () => {
  it("an owner turn sees the owner's memories and reports the memories it formed", async () => {
    const llm = new ScriptedLlm("The pipeline deploys on merge.\nMEMORY: The pipeline deploys on merge to main");
    const h = await makeMotebit({ llm });
    await h.call(owner, "motebit_remember", { content: "Deploys go through the blue-green pipeline", sensitivity: "personal" });
    const out = parse(await h.text(owner, "motebit_query", { message: "What do you know about the deployment pipeline?" }));
    expect(out).toEqual({ response: "The pipeline deploys on merge.", memories_formed: 1 });
    expect(llm.transcript()).toMatch(/blue-green pipeline/);
    const hits = parse(await h.text(owner, "motebit_recall", { query: "deploys on merge" }));
    expect(hits.map((x: { content: string }) => x.content)).toContain("The pipeline deploys on merge to main");
  });

  it("a peer turn gets none of the owner's memories or private context, and memories_formed is 0", async () => {
    const llm = new ScriptedLlm("I cannot say.\nMEMORY: a peer asked about the pipeline");
    const h = await makeMotebit({ llm });
    await h.call(owner, "motebit_remember", { content: "Deploys go through the blue-green pipeline", sensitivity: "none" });
    const out = parse(await h.text(peer(), "motebit_query", { message: "What do you know about the deployment pipeline?" }));
    expect(out).toEqual({ response: "I cannot say.", memories_formed: 0 });
    expect(llm.transcript()).not.toMatch(/blue-green/);
    expect(llm.transcript()).toMatch(/not your owner/);
    // What the peer's turn formed is kept, marked peer_agent, and never reaches the owner's recall.
    const rows = h.m.memory.list({ includeForgotten: false, limit: 50 });
    const formed = rows.find((r: { content: string }) => r.content === "a peer asked about the pipeline");
    expect(formed?.provenance).toBe("peer_agent");
    const ownerHits = parse(await h.text(owner, "motebit_recall", { query: "peer asked pipeline" }));
    expect(ownerHits.map((x: { content: string }) => x.content)).toEqual(["Deploys go through the blue-green pipeline"]);
  });

  it("says clearly when no model provider is configured", async () => {
    const h = await makeMotebit();
    const r = await h.call(owner, "motebit_query", { message: "hello" });
    expect(r.isError).toBe(true);
    expect(r.content[0].text).toMatch(/no(ne)? .*provider|model provider/i);
  });
});

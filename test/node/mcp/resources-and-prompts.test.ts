import { describe, expect, it } from "vitest";
import { makeMotebit, owner, peer } from "../helpers/motebit.js";

describe("resources and prompts", () => {
  it("serves motebit://identity to anyone: the signed file when one was loaded", async () => {
    const h = await makeMotebit({ identity: "service" });
    const r = await h.rpc(peer(), "resources/read", { uri: "motebit://identity" });
    expect(r.result.contents[0].text).toBe(h.m.identityFileText);
    expect(r.result.contents[0].text).not.toMatch(/\[motebit:/);
  });

  it("labels motebit://identity by what it holds: JSON without an identity file", async () => {
    const h = await makeMotebit();
    const listed = (await h.rpc(peer(), "resources/list")).result.resources.find((r: { uri: string }) => r.uri === "motebit://identity");
    expect(listed.mimeType).toBe("application/json");
    const read = await h.rpc(peer(), "resources/read", { uri: "motebit://identity" });
    expect(read.result.contents[0].mimeType).toBe("application/json");
    expect(JSON.parse(read.result.contents[0].text).motebit_id).toBe(h.m.motebitId);
    const withFile = await makeMotebit({ identity: "personal" });
    expect((await withFile.rpc(owner, "resources/read", { uri: "motebit://identity" })).result.contents[0].mimeType).toBe("text/markdown");
  });

  it("serves motebit://memories to the owner only, without medical, financial or secret memories", async () => {
    const h = await makeMotebit();
    await h.call(owner, "motebit_remember", { content: "likes green tea", sensitivity: "personal" });
    await h.call(owner, "motebit_remember", { content: "PIN 1234", sensitivity: "secret" });
    const listed = (await h.rpc(peer(), "resources/list")).result.resources.map((r: { uri: string }) => r.uri);
    expect(listed).toEqual(["motebit://identity", "motebit://state"]);
    const denied = await h.rpc(peer(), "resources/read", { uri: "motebit://memories" });
    expect(denied.error.message).toMatch(/only to the owner/);
    const mine = await h.rpc(owner, "resources/read", { uri: "motebit://memories" });
    expect(mine.result.contents[0].text).toMatch(/green tea/);
    expect(mine.result.contents[0].text).not.toMatch(/PIN/);
  });

  it("motebit://state shows peers public state only", async () => {
    const h = await makeMotebit();
    await h.call(owner, "motebit_remember", { content: "x", sensitivity: "none" });
    const pub = JSON.parse((await h.rpc(peer(), "resources/read", { uri: "motebit://state" })).result.contents[0].text);
    expect(pub.motebit_id).toBe(h.m.motebitId);
    expect(pub.memories).toBeUndefined();
    expect(pub.recent_calls).toBeUndefined();
    const own = JSON.parse((await h.rpc(owner, "resources/read", { uri: "motebit://state" })).result.contents[0].text);
    expect(own.memories).toBe(1);
  });

  it("lists chat, recall and reflect and renders them", async () => {
    const h = await makeMotebit();
    const names = (await h.rpc(peer(), "prompts/list")).result.prompts.map((p: { name: string }) => p.name);
    expect(names).toEqual(["chat", "recall", "reflect"]);
    const chat = await h.rpc(peer(), "prompts/get", { name: "chat", arguments: { message: "hi there" } });
    expect(chat.result.messages[0].content.text).toBe("hi there");
    const missing = await h.rpc(peer(), "prompts/get", { name: "chat", arguments: {} });
    expect(missing.error.code).toBe(-32602);
    const recall = await h.rpc(owner, "prompts/get", { name: "recall", arguments: { query: "deploys", limit: "3" } });
    expect(recall.result.messages[0].content.text).toMatch(/motebit_recall.*"deploys".*limit 3/);
  });
});

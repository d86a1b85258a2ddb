// A tool that speaks MCP hands back content blocks; they reach the caller as they are, the identity tag last.
import { describe, expect, it } from "vitest";
import { makeMotebit, owner } from "../helpers/motebit.js";

const TAG_ONLY = "[motebit:65b60673 key:79b5562e8fe654f9]";
const IMAGE = { type: "image", data: "AAAA", mimeType: "image/png" };
const served = (name: string, result: unknown) => ({
  definition: { name, description: name, inputSchema: { type: "object" }, risk: 0 },
  handler: () => result,
});

describe("MCP content from a tool", () => {
  it("passes blocks through and tags the final text block", async () => {
    const h = await makeMotebit({ tools: [served("pic", { ok: true, data: "caption", content: [IMAGE, { type: "text", text: "caption" }] })] });
    expect(await h.call(owner, "pic")).toEqual({ content: [IMAGE, { type: "text", text: `caption\n${TAG_ONLY}` }] });
  });

  it("adds the tag as a text block of its own when the last block is not text", async () => {
    const h = await makeMotebit({ tools: [served("pic", { ok: true, data: "", content: [IMAGE] })] });
    expect(await h.call(owner, "pic")).toEqual({ content: [IMAGE, { type: "text", text: TAG_ONLY }] });
  });

  it("keeps a failure's content, flagged isError and tagged", async () => {
    const h = await makeMotebit({ tools: [served("bad", { ok: false, error: "no", content: [{ type: "text", text: "no" }] })] });
    expect(await h.call(owner, "bad")).toEqual({ content: [{ type: "text", text: `no\n${TAG_ONLY}` }], isError: true });
  });

  it("refuses content that is not a list of blocks", async () => {
    const h = await makeMotebit({ tools: [served("odd", { ok: true, data: "x", content: [{ text: "no type" }] })] });
    const r = await h.call(owner, "odd");
    expect(r.isError).toBe(true);
    expect(r.content[0].text).toMatch(/^tool "odd" returned content that is not a list of MCP content blocks\n/);
  });
});

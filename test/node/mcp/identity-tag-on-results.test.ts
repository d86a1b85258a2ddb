import { describe, expect, it } from "vitest";
import { makeMotebit, owner, peer } from "../helpers/motebit.js";
import { stripIdentityTag } from "../../../src/protocol/index.js";

const TAG = /\n\[motebit:65b60673 key:79b5562e8fe654f9\]$/;

describe("identity tag on results", () => {
  it("tags synthetic results as the last line", async () => {
    const h = await makeMotebit();
    const text = await h.text(peer(), "motebit_identity");
    expect(text).toMatch(TAG);
    expect(JSON.parse(stripIdentityTag(text)).motebit_id).toBe("65b60673-d6ed-884b-b01c-2c222d82ada0");
  });

  it("tags served results and served tool failures", async () => {
    const h = await makeMotebit({
      tools: [
        { definition: { name: "echo", description: "e", inputSchema: { type: "object", properties: { text: { type: "string" } } }, risk: 0 }, handler: (a: any) => ({ ok: true, data: a.text }) },
        { definition: { name: "boom", description: "b", inputSchema: { type: "object" }, risk: 0 }, handler: () => { throw new Error("kaput"); } },
      ],
    });
    expect(await h.text(peer(), "echo", { text: "hi" })).toBe("hi\n[motebit:65b60673 key:79b5562e8fe654f9]");
    const failed = await h.call(owner, "boom");
    expect(failed.isError).toBe(true);
    expect(failed.content[0].text).toMatch(/kaput/);
    expect(failed.content[0].text).toMatch(TAG);
  });

  it("does not tag refusals or validation errors", async () => {
    const h = await makeMotebit();
    const denied = await h.call(peer(), "motebit_recall", { query: "x" });
    expect(denied.isError).toBe(true);
    expect(denied.content[0].text).not.toMatch(/\[motebit:/);
    const invalid = await h.call(peer(), "echo", { text: 5 });
    expect(invalid.isError).toBe(true);
    expect(invalid.content[0].text).not.toMatch(/\[motebit:/);
  });
});

// Served tools return what MCP tools return: content blocks and structuredContent (checked against the
// outputSchema), with the identity tag still the last text block. A malformed result is a tool error that says why.
import { describe, expect, it } from "vitest";
import { identityTag } from "../../../src/protocol/index.js";
import { makeMotebit, peer } from "../helpers/motebit.js";
import { PNG, protocolTools } from "../helpers/protocol-tools.js";

async function harness() {
  const h = await makeMotebit({ tools: protocolTools });
  return { h, tag: identityTag(h.m.motebitId, h.m.publicKeyHex) };
}

describe("rich tool results", () => {
  it("content blocks go out as given, in order; after a non-text last block the tag is its own last block", async () => {
    const { h, tag } = await harness();
    expect(await h.call(peer(), "picture")).toEqual({
      content: [
        { type: "text", text: "here it is" },
        { type: "image", data: PNG, mimeType: "image/png" },
        { type: "text", text: tag },
      ],
    });
  });

  it("an image alone gets the tag as a second block", async () => {
    const { h, tag } = await harness();
    expect(await h.call(peer(), "image_only")).toEqual({
      content: [
        { type: "image", data: PNG, mimeType: "image/png" },
        { type: "text", text: tag },
      ],
    });
  });

  it("structuredContent that fits the outputSchema goes out, with its JSON as text", async () => {
    const { h, tag } = await harness();
    expect(await h.call(peer(), "measure", { n: 7 })).toEqual({
      content: [{ type: "text", text: `{"n":7}\n${tag}` }],
      structuredContent: { n: 7 },
    });
  });

  it("structuredContent that does not fit, or is missing, is a tool error naming the problem", async () => {
    const { h } = await harness();
    const wrong = await h.call(peer(), "measure", { n: "wrong" });
    expect(wrong.isError).toBe(true);
    expect(wrong.content[0].text).toMatch(/^tool "measure" returned structuredContent that does not fit its outputSchema: "n" must be an integer/);
    const none = await h.call(peer(), "measure", { n: "none" });
    expect(none.isError).toBe(true);
    expect(none.content[0].text).toMatch(/^tool "measure" has an outputSchema but returned no structuredContent/);
  });

  it("an unknown content block type is a tool error, not a broken response", async () => {
    const { h } = await harness();
    const r = await h.call(peer(), "broken_content");
    expect(r.isError).toBe(true);
    expect(r.content[0].text).toMatch(/^tool "broken_content" returned a malformed result: content\[0\] has an unknown type "video"/);
  });
});

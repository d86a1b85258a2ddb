// The default embedder gives workerd the same vectors as Node: both runtimes are checked against one fixture
// (test/node/memory/embedder-semantic.test.ts does the Node side), computed here inside workerd.
import { expect, it } from "vitest";
import { SemanticEmbedder } from "../../../src/memory/embedder-semantic.js";
import fixture from "../../fixtures/memory/semantic-vectors.json";

it("computes in workerd exactly the vectors Node computes", async () => {
  const vectors = await new SemanticEmbedder().embed(fixture.map((f) => f.text));
  fixture.forEach(({ vector }, i) => expect(Array.from(vectors[i])).toEqual(vector));
});

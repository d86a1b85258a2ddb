// With no model provider configured, serve still starts; motebit_query says clearly that none is configured.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NO_PROVIDER } from "../../../src/mcp/synthetic/query.js";
import { callText, connectStdio, initMotebit, tempDir, type StdioSession } from "./helpers/local-cli.js";

describe("serve over stdio without a model provider", () => {
  const tmp = tempDir();
  let s: StdioSession;

  beforeAll(async () => {
    s = await connectStdio(["--identity", await initMotebit(tmp.dir)]);
  });
  afterAll(async () => {
    await s?.close();
    tmp.cleanup();
  });

  it("says on stderr that it runs in direct mode", () => {
    expect(s.stderr()).toContain("mode: direct (set ANTHROPIC_API_KEY or MOTEBIT_PROVIDER=ollama for AI mode); model: none");
  });

  it("answers motebit_query with an error result naming the missing provider", async () => {
    const r = await callText(s.client, "motebit_query", { message: "What do you know about the deployment pipeline?" });
    expect(r.isError).toBe(true);
    expect(r.text).toContain(NO_PROVIDER);
    expect(r.text.split("\n")[0]).toBe(
      "Error: motebit_query needs a model provider and none is configured for this motebit: set ANTHROPIC_API_KEY, or MOTEBIT_PROVIDER (ollama; workers-ai at the edge), with MOTEBIT_MODE unset or ai (and, for motebit-local, no --direct flag). motebit_task works without one, in direct mode.",
    );
  });
});

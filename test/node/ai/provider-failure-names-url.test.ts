// A provider that answers with an HTTP error (a wrong ANTHROPIC_BASE_URL, a stopped Ollama) is logged once per failed
// turn with provider, URL and status, never the API key; the failed receipt and motebit_query's error say the same.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchProvider } from "../../../src/agent/providers.js";
import { stripIdentityTag, verifyReceipt } from "../../../src/protocol/index.js";
import { readAiSettings } from "../../../src/settings/ai.js";
import { makeMotebit } from "../helpers/motebit.js";
import { owner, peer } from "../helpers/motebit.js";
import { aiTask } from "./ai-fixture.js";

const KEY = "sk-ant-test-secret-0123456789";
let server: Server;
let base: string;
const hits: string[] = [];

beforeAll(async () => {
  // Answers like a host that is not the Anthropic API: 404 for every path.
  server = createServer((req, res) => {
    hits.push(`${req.method} ${req.url}`);
    res.writeHead(404, { "content-type": "text/plain" }).end("Not Found");
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/wrong`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

async function motebitWith(env: Record<string, string>) {
  const lines: string[] = [];
  const llm = fetchProvider(readAiSettings({ env }, { direct: false, hasAiBinding: false }));
  const h = await makeMotebit({ llm, log: (line) => lines.push(line) });
  return { h, lines };
}

describe("a provider's HTTP failure names provider, URL and status", () => {
  it("anthropic at a wrong base URL: one log line, the same words in the signed failed receipt, no secret", async () => {
    const { h, lines } = await motebitWith({ ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: base });
    const r = await aiTask(h, peer(), { prompt: "x" });
    const port = (server.address() as AddressInfo).port;
    const said = `anthropic: http://127.0.0.1:${port}/wrong/messages answered 404 Not Found`;
    expect(r.status).toBe("failed");
    expect(r.result).toBe(`Error: ${said}`);
    expect((await verifyReceipt(r)).valid).toBe(true);
    expect(lines.filter((l) => l.startsWith("model call failed"))).toEqual([`model call failed: ${said}`]);
    for (const l of [...lines, r.result]) expect(l).not.toContain(KEY);
  });

  it("a base URL with credentials in it: neither the log line nor the receipt repeats them", async () => {
    const { h, lines } = await motebitWith({ ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: base.replace("http://", "http://user:hunter2@") + "?token=abc" });
    const r = await aiTask(h, peer(), { prompt: "x" });
    expect(r.status).toBe("failed");
    expect(r.result).toMatch(/^Error: anthropic: .*http:\/\/127\.0\.0\.1:\d+\/wrong/);
    expect(lines.filter((l) => l.startsWith("model call failed"))).toHaveLength(1);
    for (const l of [...lines, r.result]) for (const secret of [KEY, "hunter2", "token=abc"]) expect(l).not.toContain(secret);
  });

  it("a fetch that fails as workerd's does (no \"fetch failed\"): the URL is named all the same, as in Node", async () => {
    const lines: string[] = [];
    const workerdLike: typeof fetch = async () => {
      throw new Error("internal error; reference = 0123abcd");
    };
    const llm = fetchProvider(readAiSettings({ env: { ANTHROPIC_API_KEY: KEY, ANTHROPIC_BASE_URL: "https://models.invalid/v1" } }, { direct: false, hasAiBinding: false }), workerdLike);
    const h = await makeMotebit({ llm, log: (line) => lines.push(line) });
    const r = await aiTask(h, peer(), { prompt: "x" });
    expect(r.status).toBe("failed");
    expect(r.result.split("\n")[0]).toMatch(
      /^Error: anthropic: https:\/\/models\.invalid\/v1\/messages could not be reached: Cannot connect to API: internal error; reference = 0123abcd( \(\d attempts\))?$/,
    );
    expect(lines.filter((l) => l.startsWith("model call failed"))).toHaveLength(1);
  });

  it("ollama, through motebit_query: the tool error and the log line say which URL answered what", async () => {
    const { h, lines } = await motebitWith({ MOTEBIT_PROVIDER: "ollama", OLLAMA_BASE_URL: base });
    const r = await h.call(owner, "motebit_query", { message: "x" });
    expect(r.isError).toBe(true);
    const text = stripIdentityTag(r.content[0].text);
    expect(text).toMatch(/^Error: ollama: http:\/\/127\.0\.0\.1:\d+\/wrong\/\S+ answered 404 /);
    expect(lines.filter((l) => l.startsWith("model call failed"))).toEqual([`model call failed: ${text.replace(/^Error: /, "")}`]);
  });
});

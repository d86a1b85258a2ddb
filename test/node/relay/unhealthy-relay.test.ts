// A relay that is down, answers 500 or stalls never stops motebit-local from serving, and never floods the log:
// every failure is one line with the status and a hint, and retries back off (no hot loop).
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanEnv, freePort, initMotebit, startHttpServe, tempDir, REPO, type HttpServe } from "../local/helpers/local-cli.js";
import { startTestRelay } from "./helpers/test-relay.js";
import { waitFor } from "../../shared/wait-for.js";

const TOKEN = "unhealthy-relay-test-token";
let tmp: ReturnType<typeof tempDir>;
let identity: string;
let config: string;

beforeAll(async () => {
  tmp = tempDir();
  identity = await initMotebit(join(tmp.dir, "me"), ["--type", "service"]);
  config = join(tmp.dir, "motebit.json");
  writeFileSync(config, JSON.stringify({ authToken: TOKEN }), { mode: 0o600 });
}, 60_000);

afterAll(() => tmp?.cleanup());

async function serveAgainst(syncUrl: string): Promise<HttpServe> {
  return startHttpServe(
    ["--identity", identity, "--config", config, "--tools", join(REPO, "examples/tools/index.ts"), "--serve-port", "0"],
    cleanEnv({ MOTEBIT_SYNC_URL: syncUrl, MOTEBIT_RELAY_HEARTBEAT_MS: "300" }),
  );
}

/** An echo through the real SDK client; resolves with how long it took. */
async function echoTakes(url: string): Promise<number> {
  const client = new Client({ name: "unhealthy-relay", version: "1" });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } } }));
  const started = Date.now();
  const r = (await client.callTool({ name: "echo", arguments: { text: "still here" } })) as { content: { text: string }[] };
  const took = Date.now() - started;
  await client.close();
  expect(r.content[0].text).toContain("still here");
  return took;
}

const failureLines = (stderr: string) => stderr.split("\n").filter((l) => l.startsWith("motebit: relay: ") && l.includes("(retry in "));

/** Over `ms` of failures at a 300 ms heartbeat, backoff starts at 50 ms and doubles up to 300 ms: about ms/300 + 4 attempts. */
function expectBackedOff(lines: string[], ms: number) {
  expect(lines.length).toBeGreaterThanOrEqual(2);
  expect(lines.length).toBeLessThanOrEqual(Math.ceil(ms / 300) + 6);
}

describe("an unhealthy relay", () => {
  it("down: serving goes on; each failure says the relay is unreachable and where to look", async () => {
    const port = await freePort();
    const serve = await serveAgainst(`http://127.0.0.1:${port}`);
    try {
      const t0 = Date.now();
      await echoTakes(serve.url);
      const lines = await waitFor("two failures logged", () => failureLines(serve.stderr()).length >= 2 && failureLines(serve.stderr()));
      expectBackedOff(lines, Date.now() - t0 + 1_000);
      expect(lines[0]).toMatch(new RegExp(`^motebit: relay: bootstrap: relay unreachable \\(.*\\): is http://127\\.0\\.0\\.1:${port} right and the relay running\\? \\(retry in \\d+ ms\\)$`));
    } finally {
      expect(await serve.stop()).toBe(0);
    }
  });

  it("answering 500: serving goes on; each failure carries the status and a hint", async () => {
    const relay = await startTestRelay({ fault: { status: 500 } });
    const serve = await serveAgainst(relay.url);
    try {
      const t0 = Date.now();
      await echoTakes(serve.url);
      const lines = await waitFor("two failures logged", () => failureLines(serve.stderr()).length >= 2 && failureLines(serve.stderr()));
      expectBackedOff(lines, Date.now() - t0 + 1_000);
      for (const l of lines) expect(l).toMatch(/relay answered 500 \(injected fault\): the relay has a problem on its side: retrying with backoff \(retry in /);
    } finally {
      await serve.stop();
      await relay.stop();
    }
  });

  it("slow: a stalled registration does not hold up a tool call", async () => {
    const relay = await startTestRelay({ fault: { delayMs: 2_500 } });
    const serve = await serveAgainst(relay.url);
    try {
      expect(await echoTakes(serve.url)).toBeLessThan(1_000);
      // The relay answers eventually (here: with the delay only), and then the motebit is registered.
      await waitFor("registration once the relay answers", () => serve.stderr().includes("motebit: relay: registered with"), 15_000);
    } finally {
      await serve.stop();
      await relay.stop();
    }
  });
});

// The self-test's timeouts through the local relay (which, like the reference relay, leaves a task it could not
// forward "pending" with no reason): when the relay cannot reach the registered endpoint, and when the tool takes
// longer than selfTestTimeoutMs. Both under apiToken = the relay's token, so the relay routes the task to us.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyIdentityFile } from "../../../src/protocol/index.js";
import { cleanEnv, freePort, initMotebit, REPO, startHttpServe, tempDir } from "../local/helpers/local-cli.js";
import { startTestRelay, type TestRelay } from "./helpers/test-relay.js";
import { waitFor } from "../../shared/wait-for.js";

const SELF_TEST_LINE = /self-test \w+: [^\n]*\(next: [^\n]*\)/g;
let relay: TestRelay;
let tmp: ReturnType<typeof tempDir>;
let identity: string;

beforeAll(async () => {
  relay = await startTestRelay({ apiToken: "the-relay-token" });
  tmp = tempDir();
  identity = await initMotebit(join(tmp.dir, "me"), ["--type", "service"]);
}, 60_000);

afterAll(async () => {
  await relay?.stop();
  tmp?.cleanup();
});

describe("self-test outcomes", () => {
  it("timeout: the relay took the task but cannot reach the registered endpoint", async () => {
    const dead = `http://127.0.0.1:${await freePort()}`;
    const config = join(tmp.dir, "unreachable.json");
    writeFileSync(config, JSON.stringify({ selfTestTimeoutMs: 1500 }));
    const serve = await startHttpServe(["--identity", identity, "--tools", join(REPO, "examples/tools/index.ts"), "--config", config, "--self-test", "--serve-port", "0"], cleanEnv({ ...relay.trustEnv, MOTEBIT_RELAY_API_TOKEN: "the-relay-token", MOTEBIT_PUBLIC_URL: dead }));
    try {
      const line = await waitFor("the self-test line", () => serve.stderr().match(SELF_TEST_LINE)?.[0], 20_000);
      expect(line).toBe(`self-test timeout: task ${/task (\S+)/.exec(line)![1]} still "pending" after 1500 ms (next: check that the relay can reach ${dead}, or raise selfTestTimeoutMs)`);
      expect(relay.log.join("\n")).toMatch(/forward to \S+ failed: endpoint_unreachable/);
    } finally {
      await serve.stop();
    }
  });

  it("timeout: the relay routed the task to a stale registration of another motebit, and the line names it", async () => {
    // The other motebit registered with an endpoint nobody serves any more, as a host stopped without deregistering.
    const other = await initMotebit(join(tmp.dir, "stale"), ["--type", "service"]);
    const staleId = (await verifyIdentityFile(readFileSync(other, "utf8"))).motebit_id!;
    const stale = await startHttpServe(["--identity", other, "--tools", join(REPO, "examples/tools/index.ts"), "--serve-port", "0"], cleanEnv({ ...relay.trustEnv, MOTEBIT_RELAY_API_TOKEN: "the-relay-token", MOTEBIT_PUBLIC_URL: `http://127.0.0.1:${await freePort()}` }));
    try {
      await waitFor("the stale registration", () => relay.log.find((l) => l.includes(staleId)), 20_000);
      const config = join(tmp.dir, "behind-stale.json");
      writeFileSync(config, JSON.stringify({ selfTestTimeoutMs: 1500 }));
      const serve = await startHttpServe(["--identity", identity, "--tools", join(REPO, "examples/tools/index.ts"), "--config", config, "--self-test", "--serve-port", "0"], cleanEnv({ ...relay.trustEnv, MOTEBIT_RELAY_API_TOKEN: "the-relay-token" }));
      try {
        const line = await waitFor("the self-test line", () => serve.stderr().match(SELF_TEST_LINE)?.[0], 20_000);
        expect(line).toMatch(new RegExp(`^self-test timeout: task \\S+ still "pending" after 1500 ms: the relay routed it to motebit ${staleId}, not this one \\(next: ${staleId} is another registration offering \\w+, perhaps a host stopped without deregistering: stop or deregister it`));
      } finally {
        await serve.stop();
      }
    } finally {
      await stale.stop();
    }
  });

  it("timeout: no final status within selfTestTimeoutMs", async () => {
    const tools = join(tmp.dir, "sleepy.mjs");
    writeFileSync(
      tools,
      `export default [{ definition: { name: "sleepy", description: "Takes its time.", inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] }, risk: "R0_READ" },
        handler: (_a, { signal }) => new Promise((done) => { const t = setTimeout(() => done({ ok: true, data: "late" }), 4000); signal.addEventListener("abort", () => clearTimeout(t)); }) }];\n`,
    );
    const config = join(tmp.dir, "short.json");
    writeFileSync(config, JSON.stringify({ selfTestTimeoutMs: 1000 }));
    const serve = await startHttpServe(["--identity", identity, "--tools", tools, "--config", config, "--self-test", "--serve-port", "0"], cleanEnv({ ...relay.trustEnv, MOTEBIT_RELAY_API_TOKEN: "the-relay-token" }));
    try {
      const line = await waitFor("the self-test line", () => serve.stderr().match(SELF_TEST_LINE)?.[0], 20_000);
      expect(line).toMatch(/^self-test timeout: task \S+ still "pending" after 1000 ms \(next: check that the relay can reach http:\/\/127\.0\.0\.1:\d+, or raise selfTestTimeoutMs\)$/);
    } finally {
      await serve.stop();
    }
  });
});

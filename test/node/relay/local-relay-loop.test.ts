// The relay loop in motebit-local: `serve --serve-transport http` registers its loopback address (with one
// warning), heartbeats, passes --self-test through the local relay, reports task_failed when the tool fails, and
// deregisters within 2 s of SIGTERM; stdio never registers; no relay means skipped; an API token is used as is.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cleanEnv, initMotebit, startHttpServe, tempDir, runCli, REPO } from "../local/helpers/local-cli.js";
import { startTestRelay, waitFor, type TestRelay } from "./helpers/test-relay.js";

const EXAMPLE_TOOLS = join(REPO, "examples/tools/index.ts");
const SELF_TEST_LINE = /self-test \w+: [^\n]*\(next: [^\n]*\)/g;

let relay: TestRelay;
let tmp: ReturnType<typeof tempDir>;
let identity: string;
let motebitId: string;

beforeAll(async () => {
  relay = await startTestRelay();
  tmp = tempDir();
  identity = await initMotebit(join(tmp.dir, "me"), ["--type", "service", "--name", "relay test"]);
  motebitId = /motebit_id: "([^"]+)"/.exec((await import("node:fs")).readFileSync(identity, "utf8"))![1];
}, 60_000);

afterAll(async () => {
  await relay?.stop();
  tmp?.cleanup();
});

const env = (extra: Record<string, string> = {}) => cleanEnv({ ...relay.trustEnv, MOTEBIT_RELAY_HEARTBEAT_MS: "300", ...extra });

describe("motebit-local and the relay", () => {
  it("http: registers the loopback URL with one warning, heartbeats, self-test passes, SIGTERM deregisters within 2 s", async () => {
    const serve = await startHttpServe(["--identity", identity, "--tools", EXAMPLE_TOOLS, "--self-test", "--serve-port", "0"], env());
    try {
      const line = await waitFor("the self-test line", () => serve.stderr().match(SELF_TEST_LINE)?.[0], 20_000);
      expect(line).toMatch(/^self-test passed: /);
      const agent = relay.relay.agents.get(motebitId)!;
      expect(agent.endpoint_url).toBe(serve.url);
      expect(agent.capabilities).toEqual(["echo", "word_count", "current_time", "slow"]);
      expect(serve.stderr().match(/only a relay on this machine can reach it/g)).toHaveLength(1);
      const paid = [...relay.relay.tasks.values()].filter((t) => t.task.motebit_id === motebitId && t.task.settlement?.outcome === "paid");
      expect(paid).toHaveLength(1);
      expect(paid[0].receipt).toMatchObject({ relay_task_id: paid[0].task.task_id, status: "completed" });
      await waitFor("heartbeats", () => relay.count("heartbeat", motebitId) >= 2, 10_000);
      // The relay forgets the motebit: the next heartbeat answers 404, and the motebit registers again at once.
      const registered = relay.count("register", motebitId);
      relay.relay.agents.delete(motebitId);
      await waitFor("a new registration", () => relay.relay.agents.has(motebitId), 10_000);
      expect(relay.count("register", motebitId)).toBeGreaterThan(registered);
      expect(serve.stderr()).toMatch(/motebit: relay: heartbeat: relay answered 404 \(agent not registered\): the relay no longer knows this motebit: registering again\n/);
    } finally {
      const started = Date.now();
      expect(await serve.stop()).toBe(0);
      expect(Date.now() - started).toBeLessThan(2_000);
    }
    expect(relay.count("deregister", motebitId)).toBe(1);
    expect(relay.relay.agents.has(motebitId)).toBe(false);
    expect(serve.stderr().match(SELF_TEST_LINE)).toHaveLength(1);
  });

  it("self-test says task_failed when the tool fails", async () => {
    const tools = join(tmp.dir, "failing-tools.mjs");
    writeFileSync(
      tools,
      `export default [{ definition: { name: "always_fails", description: "Fails.", inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] }, risk: "R0_READ" },
        handler: () => ({ ok: false, error: "the disk is on fire" }) }];\n`,
    );
    const serve = await startHttpServe(["--identity", identity, "--tools", tools, "--self-test", "--serve-port", "0"], env());
    try {
      const line = await waitFor("the self-test line", () => serve.stderr().match(SELF_TEST_LINE)?.[0], 20_000);
      expect(line).toMatch(/^self-test task_failed: .*the disk is on fire/);
    } finally {
      await serve.stop();
    }
  });

  it("an apiToken is sent as the bearer (no bootstrap); a wrong one is logged with its hint and fails the self-test", async () => {
    const withToken = await startTestRelay({ apiToken: "the-relay-token" });
    const cfg = join(tmp.dir, "relay-token.json");
    try {
      writeFileSync(cfg, JSON.stringify({ apiToken: "not-the-relay-token" }), { mode: 0o600 });
      const wrong = await startHttpServe(["--identity", identity, "--config", cfg, "--self-test", "--serve-port", "0"], env(withToken.trustEnv));
      try {
        const line = await waitFor("the self-test line", () => wrong.stderr().match(SELF_TEST_LINE)?.[0], 10_000);
        expect(line).toMatch(/^self-test failed: registration with .* failed: register: relay answered 401 .*\(next: check apiToken \(MOTEBIT_RELAY_API_TOKEN\)\)$/);
        expect(wrong.stderr()).toMatch(/motebit: relay: register: relay answered 401 .*: check apiToken .*\(retry in /);
      } finally {
        await wrong.stop();
      }
      const right = await startHttpServe(["--identity", identity, "--tools", EXAMPLE_TOOLS, "--self-test", "--serve-port", "0"], env({ ...withToken.trustEnv, MOTEBIT_RELAY_API_TOKEN: "the-relay-token" }));
      try {
        const line = await waitFor("the self-test line", () => right.stderr().match(SELF_TEST_LINE)?.[0], 20_000);
        expect(line).toMatch(/^self-test passed: /);
        expect(withToken.count("register", motebitId)).toBeGreaterThanOrEqual(1);
        expect(withToken.count("bootstrap", motebitId)).toBe(0);
      } finally {
        await right.stop();
      }
    } finally {
      await withToken.stop();
    }
  });

  it("stdio never registers: --self-test says skipped", async () => {
    const before = relay.relay.events.length;
    const r = await runCli(["serve", "--identity", identity, "--self-test"], { env: env(), stdin: "", timeoutMs: 15_000 });
    expect(r.stderr.match(SELF_TEST_LINE)).toEqual(["self-test skipped: stdio never registers with a relay (next: serve with --serve-transport http)"]);
    expect(relay.relay.events.length).toBe(before);
  });

  it("http without a relay: --self-test says skipped, and nothing is logged as an error", async () => {
    const serve = await startHttpServe(["--identity", identity, "--self-test", "--serve-port", "0"], cleanEnv());
    try {
      await waitFor("the self-test line", () => serve.stderr().match(SELF_TEST_LINE)?.[0]);
      expect(serve.stderr().match(SELF_TEST_LINE)).toEqual(["self-test skipped: no relay configured (next: set MOTEBIT_SYNC_URL, or syncUrl in the config file)"]);
      expect(serve.stderr()).not.toMatch(/relay:/);
    } finally {
      await serve.stop();
    }
  });

  it("bound to a non-loopback address without publicUrl: does not register, says why", async () => {
    const before = relay.count("register", motebitId);
    const serve = await startHttpServe(["--identity", identity, "--serve-host", "0.0.0.0", "--serve-port", "0", "--self-test"], env());
    try {
      const line = await waitFor("the self-test line", () => serve.stderr().match(SELF_TEST_LINE)?.[0]);
      expect(serve.stderr()).toContain("motebit: relay: bound to 0.0.0.0 without publicUrl: set publicUrl (MOTEBIT_PUBLIC_URL)");
      expect(line).toMatch(/^self-test failed: this motebit cannot register/);
      expect(relay.count("register", motebitId)).toBe(before);
    } finally {
      await serve.stop();
    }
  });
});

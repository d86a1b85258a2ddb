// The relay loop in motebit-local against the local relay, which behaves like the reference relay on the wire:
// `serve --serve-transport http` registers its loopback address (one warning) under admin:query tokens and
// heartbeats; under signed tokens the self-test ends at auth_verified (the relay never routes a motebit's own task
// back to it); with apiToken = the relay's token the whole loop passes, a third party's task runs the capability it
// asked for (read back from the relay), and SIGTERM still deregisters with a signed token within 2 s; the relay's
// forward bearer (relayForwardToken) is what lets its forwards in, and a relay that signs mcp:call tokens works too.
// stdio never registers; no relay means skipped.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { verifyReceipt } from "../../../src/protocol/index.js";
import { cleanEnv, initMotebit, startHttpServe, tempDir, runCli, REPO } from "../local/helpers/local-cli.js";
import { startTestRelay, type TestRelay } from "./helpers/test-relay.js";
import { waitFor } from "../../shared/wait-for.js";

const EXAMPLE_TOOLS = join(REPO, "examples/tools/index.ts");
const SELF_TEST_LINE = /self-test \w+: [^\n]*\(next: [^\n]*\)/g;
const RELAY_TOKEN = "the-relay-token";

let relay: TestRelay;
let tokenRelay: TestRelay;
let tmp: ReturnType<typeof tempDir>;
let identity: string;
let motebitId: string;

beforeAll(async () => {
  relay = await startTestRelay();
  tokenRelay = await startTestRelay({ apiToken: RELAY_TOKEN });
  tmp = tempDir();
  identity = await initMotebit(join(tmp.dir, "me"), ["--type", "service", "--name", "relay test"]);
  motebitId = /motebit_id: "([^"]+)"/.exec((await import("node:fs")).readFileSync(identity, "utf8"))![1];
}, 60_000);

afterAll(async () => {
  await relay?.stop();
  await tokenRelay?.stop();
  tmp?.cleanup();
});

const env = (extra: Record<string, string> = {}) => cleanEnv({ ...relay.trustEnv, MOTEBIT_RELAY_HEARTBEAT_MS: "300", ...extra });
/** The relay's API token as this motebit's apiToken, and the bearer its forwards carry as relayForwardToken. */
const tokenEnv = (extra: Record<string, string> = {}) => env({ ...tokenRelay.trustEnv, MOTEBIT_RELAY_API_TOKEN: RELAY_TOKEN, ...extra });

async function submitAs(r: TestRelay, target: string, body: Record<string, unknown>): Promise<string> {
  const res = await fetch(`${r.url}/agent/${target}/task`, {
    method: "POST",
    headers: { Authorization: `Bearer ${RELAY_TOKEN}`, "Content-Type": "application/json", "Idempotency-Key": crypto.randomUUID() },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { task_id: string }).task_id;
}

const receiptOf = (r: TestRelay, taskId: string) => waitFor(`task ${taskId}'s receipt`, () => r.relay.tasks.get(taskId)?.task.settlement && (r.relay.tasks.get(taskId)!.receipt as Record<string, unknown>), 20_000);

describe("motebit-local and the relay", () => {
  it("signed tokens: registers the loopback URL with one warning, heartbeats, self-test auth_verified, SIGTERM deregisters within 2 s", async () => {
    const serve = await startHttpServe(["--identity", identity, "--tools", EXAMPLE_TOOLS, "--self-test", "--serve-port", "0"], env());
    try {
      const line = await waitFor("the self-test line", () => serve.stderr().match(SELF_TEST_LINE)?.[0], 20_000);
      expect(line).toMatch(
        /^self-test auth_verified: the relay accepted task \S+ under this motebit's signed token, but it never routes a motebit's own task back to it \(next: set apiToken \(MOTEBIT_RELAY_API_TOKEN\) to the relay's API token to run the whole loop\)$/,
      );
      const agent = relay.relay.agents.get(motebitId)!;
      expect(agent.endpoint_url).toBe(serve.url);
      expect(agent.capabilities).toEqual(["echo", "word_count", "current_time", "slow"]);
      expect(serve.stderr().match(/only a relay on this machine can reach it/g)).toHaveLength(1);
      // Submitted the way the reference's own self-test does: as us, naming one served tool; never routed back to us.
      const own = [...relay.relay.tasks.values()].filter((t) => t.task.motebit_id === motebitId);
      expect(own).toHaveLength(1);
      expect(own[0].task).toMatchObject({ submitted_by: motebitId, required_capabilities: ["echo"], status: "pending" });
      expect(own[0].task.routed_to).toBeUndefined();
      await waitFor("heartbeats", () => relay.count("heartbeat", motebitId) >= 2, 10_000);
      // The relay forgets the motebit: the next heartbeat answers 404, and the motebit registers again at once.
      const registered = relay.count("register", motebitId);
      relay.relay.agents.delete(motebitId);
      await waitFor("a new registration", () => relay.relay.agents.has(motebitId), 10_000);
      expect(relay.count("register", motebitId)).toBeGreaterThan(registered);
      expect(serve.stderr()).toMatch(/motebit: relay: heartbeat: relay answered 404 \(Agent not registered\): the relay no longer knows this motebit: registering again\n/);
    } finally {
      const started = Date.now();
      expect(await serve.stop()).toBe(0);
      expect(Date.now() - started).toBeLessThan(2_000);
    }
    expect(relay.count("deregister", motebitId)).toBe(1);
    expect(relay.relay.agents.has(motebitId)).toBe(false);
    expect(serve.stderr().match(SELF_TEST_LINE)).toHaveLength(1);
  });

  it("apiToken = the relay's token: self-test passed, a third party's task runs what it asked for, a wrong forward bearer is 401, SIGTERM deregisters", async () => {
    const serve = await startHttpServe(["--identity", identity, "--tools", EXAMPLE_TOOLS, "--self-test", "--serve-port", "0"], tokenEnv());
    try {
      const line = await waitFor("the self-test line", () => serve.stderr().match(SELF_TEST_LINE)?.[0], 20_000);
      expect(line).toMatch(/^self-test passed: task \S+ \(echo\) went /);
      // Under the API token too, the key is bootstrapped: deregistration must be signed.
      expect(tokenRelay.count("bootstrap", motebitId)).toBeGreaterThanOrEqual(1);

      // The relay forwards {prompt, relay_task_id} only; the motebit reads word_count back from the task record.
      const taskId = await submitAs(tokenRelay, motebitId, { prompt: "one two three", required_capabilities: ["word_count"] });
      const receipt = await receiptOf(tokenRelay, taskId);
      expect(tokenRelay.relay.tasks.get(taskId)!.task.settlement).toMatchObject({ outcome: "paid" });
      expect(receipt).toMatchObject({ relay_task_id: taskId, tools_used: ["word_count"], status: "completed", result: '{"words":3}' });
      expect((await verifyReceipt(receipt)).valid).toBe(true);

      // A task submitted to another agent's URL and routed here cannot be read back as ours: the receipt says so.
      const elsewhere = await submitAs(tokenRelay, "someone-else", { prompt: "four five", required_capabilities: ["word_count"] });
      const fallback = await receiptOf(tokenRelay, elsewhere);
      expect(fallback).toMatchObject({ relay_task_id: elsewhere, tools_used: ["echo"] });
      expect(String(fallback.result)).toMatch(new RegExp(`^Note: the relay's record of task ${elsewhere} could not be read \\(relay answered 404 .*\\); the tool was chosen by the default rule\\.\nfour five$`));

      for (const auth of ["Bearer not-the-relay-token", null]) {
        const res = await fetch(`${serve.url}/mcp`, {
          method: "POST",
          headers: { "Content-Type": "application/json", Accept: "application/json, text/event-stream", ...(auth ? { Authorization: auth } : {}) },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "x", version: "1" } } }),
        });
        expect(res.status).toBe(401);
      }
    } finally {
      expect(await serve.stop()).toBe(0);
    }
    expect(tokenRelay.count("deregister", motebitId)).toBe(1);
    expect(tokenRelay.relay.agents.has(motebitId)).toBe(false);
  });

  it("without relayForwardToken the relay's forwards are refused: the task stays pending and the self-test times out", async () => {
    const cfg = join(tmp.dir, "short-timeout.json");
    writeFileSync(cfg, JSON.stringify({ selfTestTimeoutMs: 1500 }));
    const serve = await startHttpServe(["--identity", identity, "--tools", EXAMPLE_TOOLS, "--config", cfg, "--self-test", "--serve-port", "0"], tokenEnv({ MOTEBIT_RELAY_FORWARD_TOKEN: "" }));
    try {
      const line = await waitFor("the self-test line", () => serve.stderr().match(SELF_TEST_LINE)?.[0], 20_000);
      expect(line).toMatch(/^self-test timeout: task \S+ still "pending" after 1500 ms/);
      expect(tokenRelay.log.join("\n")).toMatch(/forward to \S+ failed: endpoint_refused: initialize answered 401/);
    } finally {
      await serve.stop();
    }
  });

  it("a relay that signs mcp:call tokens (MOTEBIT_RELAY_TRUST) still gets in: self-test passed", async () => {
    const signing = await startTestRelay({ apiToken: RELAY_TOKEN, forwardAuth: "signed" });
    const { MOTEBIT_RELAY_FORWARD_TOKEN: _none, ...trust } = signing.trustEnv;
    try {
      const serve = await startHttpServe(["--identity", identity, "--tools", EXAMPLE_TOOLS, "--self-test", "--serve-port", "0"], env({ ...trust, MOTEBIT_RELAY_API_TOKEN: RELAY_TOKEN }));
      try {
        const line = await waitFor("the self-test line", () => serve.stderr().match(SELF_TEST_LINE)?.[0], 20_000);
        expect(line).toMatch(/^self-test passed: /);
      } finally {
        await serve.stop();
      }
    } finally {
      await signing.stop();
    }
  });

  it("self-test says task_failed when the tool fails", async () => {
    const tools = join(tmp.dir, "failing-tools.mjs");
    writeFileSync(
      tools,
      `export default [{ definition: { name: "always_fails", description: "Fails.", inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] }, risk: "R0_READ" },
        handler: () => ({ ok: false, error: "the disk is on fire" }) }];\n`,
    );
    const serve = await startHttpServe(["--identity", identity, "--tools", tools, "--self-test", "--serve-port", "0"], tokenEnv());
    try {
      const line = await waitFor("the self-test line", () => serve.stderr().match(SELF_TEST_LINE)?.[0], 20_000);
      expect(line).toMatch(/^self-test task_failed: .*the disk is on fire/);
    } finally {
      await serve.stop();
    }
  });

  it("a wrong apiToken is logged with its hint and fails the self-test", async () => {
    const cfg = join(tmp.dir, "relay-token.json");
    writeFileSync(cfg, JSON.stringify({ apiToken: "not-the-relay-token" }), { mode: 0o600 });
    const wrong = await startHttpServe(["--identity", identity, "--config", cfg, "--self-test", "--serve-port", "0"], env(tokenRelay.trustEnv));
    try {
      const line = await waitFor("the self-test line", () => wrong.stderr().match(SELF_TEST_LINE)?.[0], 10_000);
      expect(line).toMatch(/^self-test failed: registration with .* failed: register: relay answered 401 .*\(next: check apiToken \(MOTEBIT_RELAY_API_TOKEN\)\)$/);
      expect(wrong.stderr()).toMatch(/motebit: relay: register: relay answered 401 .*: check apiToken .*\(retry in /);
    } finally {
      await wrong.stop();
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

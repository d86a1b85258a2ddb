// The whole relay loop against the real local edge (wrangler dev, workerd) and the local relay (examples/relay,
// which behaves like the reference relay): the cron trigger wakes a fresh deployment, which registers before any
// request reaches it; heartbeats follow on the object's alarm; with MOTEBIT_RELAY_API_TOKEN = the relay's token,
// MOTEBIT_SELF_TEST=1 reports `passed` in the log and motebit://state; the relay forwards with its API token as
// MOTEBIT_RELAY_FORWARD_TOKEN, and a task asking for word_count runs word_count (read back from the relay) and comes
// back as a receipt bound to the relay's task id, settled; a wrong forward bearer is 401; forged, misdirected,
// replayed and wrong-audience relay-signed tokens are refused; a receipt for another task id is not settled.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSigner, mintBearerToken, verifyReceipt, type Signer } from "../../../src/protocol/index.js";
import keys from "../../fixtures/edge/keys.json";
import { freePort, startLocalEdge, type LocalEdge } from "../edge/local-edge.js";
import { startTestRelay, type TestRelay } from "./helpers/test-relay.js";
import { waitFor } from "../../shared/wait-for.js";
import { tokenHint } from "../../../src/callers/token-hints.js";
import { postStateless } from "../helpers/stateless-post.js";

const ID = keys.server.sovereign_motebit_id;
const SUBMITTER_TOKEN = "relay-test-api-token";
let relay: TestRelay;
let edge: LocalEdge;

beforeAll(async () => {
  // The relay's API token: the test submits with it, the edge registers with it, and the relay forwards with it.
  relay = await startTestRelay({ apiToken: SUBMITTER_TOKEN });
  const port = await freePort();
  edge = await startLocalEdge(
    {
      MOTEBIT_PRIVATE_KEY: keys.server.seed_hex,
      MOTEBIT_AUTH_TOKEN: keys.auth_token,
      MOTEBIT_PUBLIC_URL: `http://127.0.0.1:${port}`,
      MOTEBIT_SELF_TEST: "1",
      MOTEBIT_RELAY_HEARTBEAT_MS: "1000",
      MOTEBIT_RELAY_API_TOKEN: SUBMITTER_TOKEN,
      ...relay.trustEnv,
    },
    { port, probe: "preflight" },
  );
}, 90_000);

afterAll(async () => {
  await edge?.stop();
  await relay?.stop();
});

async function submit(prompt: string): Promise<string> {
  const res = await fetch(`${relay.url}/agent/${ID}/task`, {
    method: "POST",
    headers: { Authorization: `Bearer ${SUBMITTER_TOKEN}`, "Content-Type": "application/json", "Idempotency-Key": crypto.randomUUID() },
    body: JSON.stringify({ prompt, required_capabilities: ["word_count"] }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { task_id: string }).task_id;
}

function settled(taskId: string) {
  return waitFor(`task ${taskId} to settle`, () => relay.relay.tasks.get(taskId)?.task.settlement && relay.relay.tasks.get(taskId)!, 20_000);
}

async function initializeWith(token: string): Promise<Response> {
  return fetch(`${edge.url}/mcp`, {
    method: "POST",
    headers: { Authorization: `Bearer motebit:${token}`, "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "t", version: "1" } } }),
  });
}

describe("the relay loop at the edge", () => {
  it("a fresh deployment registers on the cron trigger, before any request reaches it, then heartbeats", async () => {
    expect(relay.count("register", ID)).toBe(0);
    const cron = await fetch(`${edge.url}/cdn-cgi/handler/scheduled`);
    expect(cron.status).toBe(200);
    await waitFor("the edge to register", () => relay.count("register", ID) > 0, 20_000);
    const agent = relay.relay.agents.get(ID)!;
    expect(agent.endpoint_url).toBe(edge.url);
    expect(agent.public_key).toBe(keys.server.public_key_hex);
    // The served tools a peer may call; read_note is localOnly and never announced.
    expect(agent.capabilities).toEqual(expect.arrayContaining(["echo", "word_count"]));
    expect(agent.capabilities).not.toContain("read_note");
    await waitFor("two heartbeats on the alarm", () => relay.count("heartbeat", ID) >= 2, 15_000);
  });

  it("MOTEBIT_SELF_TEST=1 reports passed, in the log and in motebit://state", async () => {
    const line = await waitFor("the self-test line", () => /self-test \w+: [^\n]*\(next: [^\n]*\)/.exec(edge.output())?.[0], 30_000);
    expect(line).toMatch(/^self-test passed: /);
    expect(edge.output().match(/self-test \w+:/g)).toHaveLength(1);

    // One plain POST read to its end: an SDK client's GET probe and abort on close would themselves put a kj
    // "Broken pipe" into the edge's log, which the last test here holds to none.
    const read = await postStateless(edge.url, "resources/read", { uri: "motebit://state" }, { headers: { "Mcp-Name": "motebit://state" } });
    expect(read.status).toBe(200);
    const state = JSON.parse(((read.body.result as { contents: { text: string }[] }).contents[0]).text);
    expect(state.relay).toMatchObject({ sync_url: relay.url, endpoint_url: edge.url, registered: true, self_test: line });
  });

  it("a relay-dispatched task reaches the edge URL and comes back as a receipt bound to the relay's task id, then is settled", async () => {
    const taskId = await submit("hello from the relay");
    const entry = await settled(taskId);
    expect(entry.task).toMatchObject({ status: "completed", settlement: { outcome: "paid" } });
    const receipt = entry.receipt as Record<string, unknown>;
    expect(receipt).toMatchObject({ relay_task_id: taskId, motebit_id: ID, public_key: keys.server.public_key_hex, status: "completed", tools_used: ["word_count"] });
    expect((await verifyReceipt(receipt)).valid).toBe(true);
    // The poll API the self-test uses shows the same.
    const polled = await fetch(`${relay.url}/agent/${ID}/task/${taskId}`, { headers: { Authorization: `Bearer ${SUBMITTER_TOKEN}` } });
    expect(await polled.json()).toMatchObject({ task: { status: "completed" }, receipt: { relay_task_id: taskId } });
  });

  it("a receipt bound to another task id is refused: the relay does not settle it", async () => {
    const proxy = await tamperingProxy(edge.url);
    const agent = relay.relay.agents.get(ID)!;
    const real = agent.endpoint_url;
    agent.endpoint_url = proxy.url;
    try {
      const taskId = await submit("bind me elsewhere");
      const entry = await settled(taskId);
      // Like the reference, any receipt completes the task; settling verifies it and refuses this one.
      expect(entry.task.status).toBe("completed");
      expect(entry.task.settlement).toMatchObject({ outcome: "refused" });
      expect(entry.task.settlement!.reason).toContain(`is not this task (${taskId})`);
    } finally {
      agent.endpoint_url = real;
      await proxy.close();
    }
  });

  it("a forward with a wrong or no bearer is 401", async () => {
    for (const auth of ["Bearer not-the-relay-token", null]) {
      const res = await fetch(`${edge.url}/mcp`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json", ...(auth ? { Authorization: auth } : {}) },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "t", version: "1" } } }),
      });
      expect(res.status).toBe(401);
    }
  });

  describe("relay tokens the edge refuses, each with its reason", () => {
    let relayId: string;
    let stranger: Signer;
    beforeAll(async () => {
      relayId = relay.trustEnv.MOTEBIT_RELAY_ID;
      stranger = await createSigner(keys.stranger.seed_hex);
    });
    const refusal = async (res: Response) => ({ status: res.status, body: await res.json() });

    it("claiming the relay's id but signed by another key", async () => {
      const token = await mintBearerToken({ mid: relayId, did: "x", aud: "mcp:call", sub: ID }, stranger);
      expect(await refusal(await initializeWith(token))).toEqual({ status: 401, body: { error: "invalid motebit token", reason: "no_key_for_caller", hint: tokenHint("no_key_for_caller") } });
    });

    it("signed by the relay for another motebit (sub)", async () => {
      const token = await mintBearerToken({ mid: relayId, did: "x", aud: "mcp:call", sub: keys.known_caller.sovereign_motebit_id }, relay.signer);
      expect(await refusal(await initializeWith(token))).toEqual({ status: 401, body: { error: "invalid motebit token", reason: "subject_mismatch", hint: tokenHint("subject_mismatch") } });
    });

    it("replayed", async () => {
      const token = await mintBearerToken({ mid: relayId, did: "x", aud: "mcp:call", sub: ID }, relay.signer);
      expect((await initializeWith(token)).status).toBe(200);
      expect(await refusal(await initializeWith(token))).toEqual({ status: 401, body: { error: "invalid motebit token", reason: "jti_replayed", hint: tokenHint("jti_replayed") } });
    });

    it("a task:dispatch token used as a bearer", async () => {
      const token = await mintBearerToken({ mid: relayId, did: "x", aud: "task:dispatch", sub: ID }, relay.signer);
      expect(await refusal(await initializeWith(token))).toEqual({ status: 401, body: { error: "invalid motebit token", reason: "audience_mismatch", hint: tokenHint("audience_mismatch") } });
    });

    it("another mid signed with the relay key, when relayId names the relay", async () => {
      const token = await mintBearerToken({ mid: keys.stranger.sovereign_motebit_id, did: "x", aud: "mcp:call", sub: ID }, relay.signer);
      expect(await refusal(await initializeWith(token))).toEqual({ status: 401, body: { error: "invalid motebit token", reason: "no_key_for_caller", hint: tokenHint("no_key_for_caller") } });
    });
  });

  it("after tasks forwarded by the relay, the edge's log holds no kj Broken pipe error and no cron warning", () => {
    expect(relay.count("settle", ID)).toBeGreaterThan(0);
    expect(edge.output()).not.toMatch(/Broken pipe|Scheduled Workers are not automatically triggered/);
  });
});

/** Sits between the relay and the edge and rewrites the relay_task_id of every motebit_task call. */
async function tamperingProxy(target: string): Promise<{ url: string; close(): Promise<void> }> {
  const server: Server = createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    let body = Buffer.concat(chunks).toString("utf8");
    if (body.includes('"motebit_task"')) {
      const msg = JSON.parse(body);
      msg.params.arguments.relay_task_id = "some-other-task";
      body = JSON.stringify(msg);
    }
    const headers: Record<string, string> = {};
    for (const h of ["authorization", "content-type", "accept", "mcp-session-id"]) if (req.headers[h]) headers[h] = String(req.headers[h]);
    const upstream = await fetch(target + req.url, { method: req.method, headers, body: req.method === "GET" ? undefined : body });
    const out: Record<string, string> = {};
    upstream.headers.forEach((v, k) => {
      if (k !== "content-length" && k !== "content-encoding" && k !== "transfer-encoding") out[k] = v;
    });
    res.writeHead(upstream.status, out);
    res.end(Buffer.from(await upstream.arrayBuffer()));
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

// The fleet end to end, black-box: the real local edge (wrangler dev, workerd) with MOTEBIT_FLEET_TOKEN, the local
// relay (examples/relay, on the wire like the reference relay) and the operator's CLI. Two motebits created with
// `motebit-local fleet create` each register with the relay under their own URL and key; a third party's task asking
// for a capability only one of them serves is forwarded there with the relay's master-token bearer (the deployment's
// MOTEBIT_RELAY_FORWARD_TOKEN), runs the capability the motebit read back from the relay, and is receipted under
// that motebit's own key. Each refuses the other's tokens; `fleet list`, `get` and `delete` work from the CLI.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSigner, mintBearerToken, verifyIdentityFile, verifyReceipt } from "../../../src/protocol/index.js";
import keys from "../../fixtures/edge/keys.json";
import { runCli } from "../cli/run-cli.js";
import { startTestRelay, type TestRelay } from "../relay/helpers/test-relay.js";
import { waitFor } from "../../shared/wait-for.js";
import { freePort, startLocalEdge, type LocalEdge } from "./local-edge.js";

const FLEET_TOKEN = "fleet-over-http-operator-token";
/** The relay's master token: a third party submits with it, and the relay forwards with it as its bearer. */
const RELAY_TOKEN = "fleet-relay-master-token";
/** Each serves echo (the default rule's first tool) and one capability the other lacks, so routing is unambiguous. */
const TOOLS = { one: ["echo", "word_count"], two: ["echo", "slow"] } as const;
let relay: TestRelay;
let edge: LocalEdge;
let dir: string;
const made: Record<string, { motebit_id: string; public_key: string; identity: string; mcp_url: string }> = {};

const cli = (...args: string[]) => runCli(["fleet", ...args, "--url", edge.url, "--token-file", join(dir, "fleet.token")]);

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "motebit-fleet-"));
  writeFileSync(join(dir, "fleet.token"), FLEET_TOKEN + "\n");
  writeFileSync(join(dir, "callers.json"), JSON.stringify({ [keys.known_caller.sovereign_motebit_id]: { public_key: keys.known_caller.public_key_hex, trust: "verified" } }));
  relay = await startTestRelay({ apiToken: RELAY_TOKEN });
  const port = await freePort();
  edge = await startLocalEdge(
    { MOTEBIT_FLEET_TOKEN: FLEET_TOKEN, MOTEBIT_PUBLIC_URL: `http://127.0.0.1:${port}`, MOTEBIT_RELAY_HEARTBEAT_MS: "1000", ...relay.trustEnv },
    { port, probe: "preflight" },
  );
  for (const name of ["one", "two"] as const) {
    const r = await cli("create", name, "--known-callers", join(dir, "callers.json"), "--display-name", `Fleet ${name}`, "--tools", TOOLS[name].join(","));
    if (r.code !== 0) throw new Error(`fleet create ${name}: ${r.stderr}`);
    made[name] = JSON.parse(r.stdout);
  }
}, 120_000);

afterAll(async () => {
  await edge?.stop();
  await relay?.stop();
  rmSync(dir, { recursive: true, force: true });
});

async function initialize(name: string, sub: string): Promise<number> {
  const token = await mintBearerToken({ mid: keys.known_caller.sovereign_motebit_id, did: "t", aud: "mcp:call", sub }, await createSigner(keys.known_caller.seed_hex));
  const res = await fetch(`${edge.url}/m/${name}/mcp`, {
    method: "POST",
    headers: { Authorization: `Bearer motebit:${token}`, "Content-Type": "application/json", Accept: "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "initialize", params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "t", version: "1" } } }),
  });
  await res.arrayBuffer();
  return res.status;
}

describe("a fleet over real HTTP", () => {
  it("fleet create answers each motebit's own key, signed identity and URL", async () => {
    for (const name of ["one", "two"]) {
      expect(made[name].mcp_url).toBe(`${edge.url}/m/${name}/mcp`);
      const v = await verifyIdentityFile(made[name].identity);
      expect([v.valid, v.publicKeyHex, v.doc?.service_name]).toEqual([true, made[name].public_key, `Fleet ${name}`]);
    }
    expect(made.one.motebit_id).not.toBe(made.two.motebit_id);
  });

  it("each registers with the relay under its own URL, key and tools", async () => {
    for (const name of ["one", "two"] as const) {
      const id = made[name].motebit_id;
      await waitFor(`${name} to register`, () => relay.count("register", id) > 0, 30_000);
      expect(relay.relay.agents.get(id)).toMatchObject({ endpoint_url: `${edge.url}/m/${name}`, public_key: made[name].public_key, capabilities: [...TOOLS[name]] });
    }
  });

  it("each serves a relay-dispatched task at its own URL, running what the third party asked for, receipted under its own key", async () => {
    const asks = {
      one: { capability: "word_count", prompt: "one two three", result: '{"words":3}' },
      two: { capability: "slow", prompt: "10", result: "waited 10ms" },
    } as const;
    for (const name of ["one", "two"] as const) {
      const id = made[name].motebit_id;
      // A third party under the relay's master token: no submitter identity, a capability only `name` serves.
      const submitted = await fetch(`${relay.url}/agent/${id}/task`, {
        method: "POST",
        headers: { Authorization: `Bearer ${RELAY_TOKEN}`, "Content-Type": "application/json", "Idempotency-Key": crypto.randomUUID() },
        body: JSON.stringify({ prompt: asks[name].prompt, required_capabilities: [asks[name].capability] }),
      });
      expect(submitted.status).toBe(201);
      const answer = (await submitted.json()) as { task_id: string; routing_choice: { selected_agent: string } | null };
      expect(answer.routing_choice?.selected_agent).toBe(id);
      const taskId = answer.task_id;
      const entry = await waitFor(`task at ${name} to settle`, () => relay.relay.tasks.get(taskId)?.task.settlement && relay.relay.tasks.get(taskId)!, 30_000);
      expect(entry.task).toMatchObject({ status: "completed", routed_to: id, settlement: { outcome: "paid" } });
      const receipt = entry.receipt as Record<string, unknown>;
      // The relay forwarded {prompt, relay_task_id} only: the capability was read back from the relay by this motebit.
      expect(receipt).toMatchObject({ relay_task_id: taskId, motebit_id: id, public_key: made[name].public_key, status: "completed", tools_used: [asks[name].capability], result: asks[name].result });
      expect((await verifyReceipt(receipt)).valid).toBe(true);
    }
    expect(relay.log.join("\n")).not.toMatch(/forward to \S+ failed/);
  });

  it("a token for one is accepted there and refused at the other", async () => {
    expect(await initialize("one", made.one.motebit_id)).toBe(200);
    expect(await initialize("two", made.one.motebit_id)).toBe(401);
    expect(await initialize("two", made.two.motebit_id)).toBe(200);
    expect(await initialize("one", made.two.motebit_id)).toBe(401);
  });

  it("fleet list, get and delete from the CLI; a retired motebit is 404 and its receipts still verify offline", async () => {
    const list = await cli("list", "--limit", "1");
    expect(list.code, list.stderr).toBe(0);
    expect(JSON.parse(list.stdout)).toMatchObject({ motebits: [{ name: "one", status: "ready" }], next: "one" });
    const got = await cli("get", "two");
    expect(JSON.parse(got.stdout)).toMatchObject({ name: "two", motebit_id: made.two.motebit_id });
    const gone = await cli("delete", "two");
    expect(JSON.parse(gone.stdout)).toMatchObject({ name: "two", retired: true });
    const after = await cli("get", "two");
    expect(after.code).toBe(1);
    expect(after.stderr).toContain("HTTP 404");
    expect((await fetch(`${edge.url}/m/two/health`)).status).toBe(404);
    const receipt = [...relay.relay.tasks.values()].find((t) => (t.receipt as { motebit_id?: string } | null)?.motebit_id === made.two.motebit_id)!.receipt;
    expect((await verifyReceipt(receipt as Record<string, unknown>)).valid).toBe(true);
  });

  it("a wrong operator token is refused by the CLI's server with 401", async () => {
    writeFileSync(join(dir, "wrong.token"), "not-it");
    const r = await runCli(["fleet", "list", "--url", edge.url, "--token-file", join(dir, "wrong.token")]);
    expect([r.code, r.stderr]).toEqual([1, expect.stringContaining("HTTP 401")]);
  });
});

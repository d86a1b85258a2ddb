// A fleet motebit behind a relay that signs an mcp:call token per forward (the product document's newer relay):
// the real local edge (wrangler dev, workerd) trusts the relay's key only (MOTEBIT_RELAY_TRUST / MOTEBIT_RELAY_ID, no
// forward bearer); a third party's task is forwarded to `<public url>/m/<name>` under the relay's signature, runs the
// capability the motebit read back from the relay, and is receipted under the fleet motebit's own key.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { verifyReceipt } from "../../../src/protocol/index.js";
import { runCli } from "../cli/run-cli.js";
import { startTestRelay, type TestRelay } from "../relay/helpers/test-relay.js";
import { waitFor } from "../../shared/wait-for.js";
import { freePort, startLocalEdge, type LocalEdge } from "./local-edge.js";

const FLEET_TOKEN = "fleet-signed-relay-operator-token";
const RELAY_TOKEN = "fleet-signed-relay-master-token";
let relay: TestRelay;
let edge: LocalEdge;
let dir: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), "motebit-fleet-signed-"));
  writeFileSync(join(dir, "fleet.token"), FLEET_TOKEN + "\n");
  relay = await startTestRelay({ apiToken: RELAY_TOKEN, forwardAuth: "signed" });
  // The relay's key and id only: its master token is never a credential at the motebit here.
  const { MOTEBIT_RELAY_FORWARD_TOKEN: _none, ...trust } = relay.trustEnv;
  const port = await freePort();
  edge = await startLocalEdge({ MOTEBIT_FLEET_TOKEN: FLEET_TOKEN, MOTEBIT_PUBLIC_URL: `http://127.0.0.1:${port}`, MOTEBIT_RELAY_HEARTBEAT_MS: "1000", ...trust }, { port, probe: "preflight" });
}, 120_000);

afterAll(async () => {
  await edge?.stop();
  await relay?.stop();
  rmSync(dir, { recursive: true, force: true });
});

it("a relay-signed forward reaches the fleet motebit at its own URL and is receipted under its own key", async () => {
  const r = await runCli(["fleet", "create", "signed", "--tools", "echo,word_count", "--url", edge.url, "--token-file", join(dir, "fleet.token")]);
  expect(r.code, r.stderr).toBe(0);
  const made = JSON.parse(r.stdout) as { motebit_id: string; public_key: string };
  await waitFor("the fleet motebit to register", () => relay.relay.agents.has(made.motebit_id), 30_000);
  expect(relay.relay.agents.get(made.motebit_id)).toMatchObject({ endpoint_url: `${edge.url}/m/signed`, public_key: made.public_key });

  const submitted = await fetch(`${relay.url}/agent/${made.motebit_id}/task`, {
    method: "POST",
    headers: { Authorization: `Bearer ${RELAY_TOKEN}`, "Content-Type": "application/json", "Idempotency-Key": crypto.randomUUID() },
    body: JSON.stringify({ prompt: "four five six seven", required_capabilities: ["word_count"] }),
  });
  expect(submitted.status).toBe(201);
  const taskId = ((await submitted.json()) as { task_id: string }).task_id;
  const entry = await waitFor("the task to settle", () => relay.relay.tasks.get(taskId)?.task.settlement && relay.relay.tasks.get(taskId)!, 30_000);
  expect(entry.task).toMatchObject({ status: "completed", routed_to: made.motebit_id, settlement: { outcome: "paid" } });
  const receipt = entry.receipt as Record<string, unknown>;
  expect(receipt).toMatchObject({ relay_task_id: taskId, motebit_id: made.motebit_id, public_key: made.public_key, tools_used: ["word_count"], result: '{"words":4}' });
  expect((await verifyReceipt(receipt)).valid).toBe(true);
});

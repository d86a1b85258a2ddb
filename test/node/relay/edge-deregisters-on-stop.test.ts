// `npm start` with a relay: Ctrl-C (SIGINT to npm start's process group) deregisters the edge before it stops, as
// motebit-local does on SIGINT/SIGTERM, so the relay stops routing tasks to an edge that is gone; and nothing of it is
// left listening afterwards.
import { afterAll, expect, it } from "vitest";
import keys from "../../fixtures/edge/keys.json";
import { freePort, startLocalEdge, type LocalEdge } from "../edge/local-edge.js";
import { startTestRelay, type TestRelay } from "./helpers/test-relay.js";
import { waitFor } from "../../shared/wait-for.js";

const ID = keys.server.sovereign_motebit_id;
let relay: TestRelay | undefined;
let edge: LocalEdge | undefined;

afterAll(async () => {
  await edge?.stop();
  await relay?.stop();
});

it("Ctrl-C on npm start deregisters the edge from its relay, then the edge is gone", async () => {
  relay = await startTestRelay({ apiToken: "dereg-test-token" });
  const port = await freePort();
  edge = await startLocalEdge(
    { MOTEBIT_PRIVATE_KEY: keys.server.seed_hex, MOTEBIT_PUBLIC_URL: `http://127.0.0.1:${port}`, MOTEBIT_RELAY_API_TOKEN: "dereg-test-token", ...relay.trustEnv },
    { port, probe: "preflight" },
  );
  await fetch(`${edge.url}/cdn-cgi/handler/scheduled`);
  await waitFor("the edge to register", () => relay!.count("register", ID) > 0, 30_000);
  expect(relay.count("deregister", ID)).toBe(0);
  process.kill(-edge.pgid, "SIGINT"); // what Ctrl-C sends npm start's process group
  await waitFor("the edge to deregister", () => relay!.count("deregister", ID) > 0, 15_000);
  expect(relay.relay.agents.has(ID)).toBe(false);
  await waitFor("the edge to stop listening", async () => (await fetch(`${edge!.url}/health`).then(() => false, () => true)) || undefined, 15_000);
}, 120_000);

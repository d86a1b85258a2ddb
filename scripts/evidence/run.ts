// npm run evidence: the hostile-load evidence on both hosts, on loopback, bounded, stopping by itself.
// Lying or malformed framing, replay storm, load run, session flood (memory sampled until it levels off), per-caller starvation, crash test (SIGKILL under
// concurrent writers), task kills (SIGKILL while MCP tasks run: runs and receipts per task; the same for synchronous
// motebit_task calls), fleet rounds (PATCH and
// DELETE + re-create while tasks run at the edge) and receipt truth (AI mode under a hostile scripted model, on its own host), against motebit-local serve --serve-transport http and the local edge (wrangler dev).
// One line per figure; exit 1 when any check fails.
//   EVIDENCE_HOSTS=node,edge (default both)   EVIDENCE_SCALE=1 (multiplies request counts)   EVIDENCE_SEED=1
//   EVIDENCE_ONLY=framing,replay,load,flood,crash,taskkill,synckill,fleet,starve,truth,oauth (default all; taskkill and synckill run on the Node host, fleet at the edge)
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import keys from "../../test/fixtures/edge/keys.json";
import { knownCallersJson, makePeers } from "./client.js";
import { edgeHost, nodeHost, type Host, type HostSettings } from "./hosts.js";
import { framing } from "./framing.js";
import { crashTest, loadRun, replayStorm, sessionFlood, type Outcome } from "./scenarios.js";
import { DEFAULT_MAX_SESSIONS_PER_CALLER } from "../../src/settings/server-config.js";
import { ScriptedModelServer } from "../../test/doubles/model-server.js";
import { receiptTruth } from "./receipt-truth.js";
import { starvation } from "./starvation.js";
import { syncTaskKills, taskKills } from "./task-kills.js";
import { fleetRounds } from "./fleet-rounds.js";
import { lookAlikeApproval, oauthAbuse } from "./oauth-abuse.js";

const scale = Number(process.env.EVIDENCE_SCALE ?? 1);
const hosts = (process.env.EVIDENCE_HOSTS ?? "node,edge").split(",").map((s) => s.trim());
const only = new Set((process.env.EVIDENCE_ONLY ?? "framing,replay,load,flood,crash,taskkill,synckill,fleet,starve,truth,oauth").split(",").map((s) => s.trim()));
const n = (x: number) => Math.max(1, Math.round(x * scale));

/** mulberry32: the crash moments are random but replayable from EVIDENCE_SEED. */
function seeded(seed: number): () => number {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function main(): Promise<number> {
  const peers = await makePeers(16);
  const settings: HostSettings = { seedHex: keys.server.seed_hex, authToken: "evidence-static-token", knownCallersJson: knownCallersJson(peers) };
  const serverId = keys.server.sovereign_motebit_id;
  const random = seeded(Number(process.env.EVIDENCE_SEED ?? 1));
  const failures: string[] = [];
  const report = (o: Outcome) => {
    for (const l of o.lines) console.log(l);
    failures.push(...o.failures);
  };
  const root = mkdtempSync(path.join(tmpdir(), "motebit-evidence-"));
  const hardStop = setTimeout(() => {
    console.error("evidence: time limit (25 min) reached, stopping");
    process.exit(1);
  }, 25 * 60_000);
  try {
    if (only.has("oauth")) report(await lookAlikeApproval(settings.seedHex, serverId));
    for (const name of hosts) {
      const make = (): Host => (name === "edge" ? edgeHost(path.join(root, "edge"), settings) : nodeHost(path.join(root, name), settings));
      const host = make();
      // The logged_step tool (tools.ts) writes each execution here; the Node host inherits it.
      process.env.EVIDENCE_RUN_LOG = path.join(root, `${name}-runs.log`);
      await host.start();
      try {
        // wrangler dev (4.116) exits when a client abandons a body it declared (its own body-drain middleware, dev
        // only): the edge is restarted so each case, and what follows, meets a running server.
        const revive = name === "edge" ? async () => (await host.kill(), await host.start()) : undefined;
        if (only.has("framing")) report(await framing(host.name, host.url, `Bearer ${settings.authToken}`, name !== "edge", revive));
        if (only.has("replay")) report(await replayStorm(host, peers[0], serverId, { copies: 50, rounds: 10 }));
        if (only.has("load")) report(await loadRun(host, peers, serverId, { requests: n(name === "edge" ? 1200 : 2000), concurrency: 8 }));
        if (only.has("flood")) {
          const flood = { total: n(name === "edge" ? 12_000 : 20_000), every: n(1_000), concurrency: 16, maxSessionsPerCaller: DEFAULT_MAX_SESSIONS_PER_CALLER };
          report(await sessionFlood(host, `Bearer ${settings.authToken}`, flood));
        }
        if (only.has("oauth")) report(await oauthAbuse(host.name, host.url, settings.seedHex, { registrations: n(1_000), authorizes: n(250) }));
        if (only.has("starve")) report(await starvation(host, `Bearer ${settings.authToken}`, peers[1], serverId, { elicitation: name !== "edge" }));
        if (only.has("crash")) report(
          await crashTest(host, peers, serverId, {
            kills: name === "edge" ? 2 : 5,
            writers: 8,
            minMs: 1_500,
            maxMs: 4_000,
            random,
          }),
        );
        if (only.has("taskkill") && name !== "edge") {
          report(await taskKills(host, peers, serverId, { kills: 5, tasks: n(1_000), minMs: 1_500, maxMs: 4_000, random, runLog: process.env.EVIDENCE_RUN_LOG }));
          await host.start();
        }
        if (only.has("synckill") && name !== "edge") {
          report(await syncTaskKills(host, peers, serverId, { kills: 5, calls: n(400), minMs: 1_500, maxMs: 4_000, random, runLog: process.env.EVIDENCE_RUN_LOG }));
          await host.start();
        }
      } finally {
        await host.stop();
      }
      if (only.has("fleet") && name === "edge") {
        // Its own host: the fleet on, and a Worker whose logged_step logs each execution to its console.
        const fleetToken = "evidence-fleet-operator-token";
        const fleetHost = edgeHost(path.join(root, "edge-fleet"), settings, { entry: "scripts/evidence/edge-worker.ts", fleetToken });
        await fleetHost.start();
        try {
          report(await fleetRounds(fleetHost, fleetToken, { rounds: n(24), tasksPerRound: 6, random }));
        } finally {
          await fleetHost.stop();
        }
      }
      if (only.has("truth")) {
        // Its own host: AI mode against a scripted model, so the other runs keep direct mode's answers.
        const model = new ScriptedModelServer();
        const modelUrl = await model.start();
        const aiEnv = { ANTHROPIC_API_KEY: "sk-ant-evidence", ANTHROPIC_BASE_URL: `${modelUrl}/v1`, MOTEBIT_MODEL: "claude-evidence" };
        const aiSettings = { ...settings, aiEnv };
        const dir = path.join(root, `${name}-truth`);
        const truthHost = name === "edge" ? edgeHost(dir, aiSettings) : nodeHost(dir, aiSettings);
        await truthHost.start();
        try {
          report(await receiptTruth(truthHost, model, `Bearer ${settings.authToken}`, { tasks: n(60) }));
        } finally {
          await truthHost.stop();
          await model.stop();
        }
      }
    }
  } finally {
    clearTimeout(hardStop);
    rmSync(root, { recursive: true, force: true });
  }
  for (const f of failures) console.log(`FAILED: ${f}`);
  console.log(failures.length === 0 ? "evidence: every check passed" : `evidence: ${failures.length} checks failed`);
  return failures.length === 0 ? 0 : 1;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(`evidence: ${(e as Error)?.stack ?? e}`);
    process.exit(1);
  },
);

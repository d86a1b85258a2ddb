// The four evidence runs. Each returns its figures as lines and a list of failed checks (empty = passed).
import { verifyReceipt, type ExecutionReceipt } from "../../src/protocol/index.js";
import { INITIALIZE, percentile, pool, post, resultText, tokenFor, toolCall, type Peer } from "./client.js";
import type { Host } from "./hosts.js";

export interface Outcome {
  lines: string[];
  failures: string[];
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** N concurrent copies of one signed token, several rounds: exactly one accepted each time, and none after a restart. */
export async function replayStorm(host: Host, peer: Peer, serverId: string, o: { copies: number; rounds: number }): Promise<Outcome> {
  const failures: string[] = [];
  let exact = 0;
  const used: string[] = [];
  for (let round = 0; round < o.rounds; round++) {
    const token = await tokenFor(peer, serverId);
    used.push(token);
    const answers = await Promise.all(Array.from({ length: o.copies }, () => post(host.url, token, INITIALIZE)));
    const accepted = answers.filter((a) => a.status === 200).length;
    const replayed = answers.filter((a) => a.status === 401 && a.body.includes("jti_replayed")).length;
    if (accepted === 1 && replayed === o.copies - 1) exact++;
    else failures.push(`replay round ${round}: ${accepted} accepted, ${replayed} refused as jti_replayed of ${o.copies}`);
  }
  await host.stop();
  await host.start();
  const after = await Promise.all(used.map((t) => post(host.url, t, INITIALIZE)));
  const acceptedAfter = after.filter((a) => a.status === 200).length;
  if (acceptedAfter !== 0) failures.push(`replay after restart: ${acceptedAfter} of ${used.length} used tokens accepted again`);
  return {
    lines: [
      `${host.name} replay storm: ${exact}/${o.rounds} rounds with exactly 1 of ${o.copies} concurrent copies accepted`,
      `${host.name} replay after restart: ${acceptedAfter} of ${used.length} used tokens accepted again`,
    ],
    failures,
  };
}

type Kind = "tool" | "remember" | "task";

/** Many peers, a fresh signed token per request, mixing tool calls, remembers and tasks; every receipt verified. */
export async function loadRun(host: Host, peers: Peer[], serverId: string, o: { requests: number; concurrency: number }): Promise<Outcome> {
  const failures: string[] = [];
  const sessions = await Promise.all(
    peers.map(async (p) => {
      const a = await post(host.url, await tokenFor(p, serverId), INITIALIZE);
      if (a.status !== 200 || !a.session) throw new Error(`${host.name}: initialize HTTP ${a.status} ${a.body.slice(0, 200)}`);
      return a.session;
    }),
  );
  const latencies: number[] = [];
  const counts: Record<Kind, number> = { tool: 0, remember: 0, task: 0 };
  let errors = 0;
  let receiptsVerified = 0;
  const started = performance.now();
  await pool(o.requests, o.concurrency, async (i) => {
    const p = i % peers.length;
    const kind: Kind = (["tool", "tool", "remember", "task"] as const)[i % 4];
    const message =
      kind === "tool"
        ? toolCall(i, "echo", { text: `load ${i}` })
        : kind === "remember"
          ? toolCall(i, "motebit_remember", { content: `load memory ${i}` })
          : toolCall(i, "motebit_task", { prompt: `task ${i}`, required_capabilities: ["echo"] });
    const t0 = performance.now();
    try {
      const a = await post(host.url, await tokenFor(peers[p], serverId), message, sessions[p]);
      latencies.push(performance.now() - t0);
      const text = resultText(a);
      if (text === null) throw new Error(`HTTP ${a.status} ${a.body.slice(0, 200)}`);
      if (kind === "task") {
        const receipt = JSON.parse(text) as ExecutionReceipt;
        const v = await verifyReceipt(receipt, { checkResultHash: true });
        if (!v.valid || receipt.status !== "completed" || receipt.result !== `task ${i}`) throw new Error(`receipt ${JSON.stringify(v.errors)} ${receipt.status}`);
        receiptsVerified++;
      } else if (kind === "tool" && text !== `load ${i}`) throw new Error(`echo answered ${text.slice(0, 100)}`);
      counts[kind]++;
    } catch (e) {
      errors++;
      if (failures.length < 5) failures.push(`load request ${i} (${kind}): ${(e as Error).message}`);
    }
  });
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  if (errors > 0) failures.push(`load: ${errors} errors`);
  return {
    lines: [
      `${host.name} load: ${o.requests} requests from ${peers.length} peers, c=${o.concurrency}, each with a fresh signed token: ` +
        `${(o.requests / seconds).toFixed(0)} req/s, p50 ${percentile(latencies, 50).toFixed(0)} ms, p99 ${percentile(latencies, 99).toFixed(0)} ms, ${errors} errors`,
      `${host.name} load mix: ${counts.tool} tool calls, ${counts.remember} remembers, ${counts.task} tasks; ${receiptsVerified} of ${counts.task} receipts verified`,
    ],
    failures,
  };
}

/**
 * `total` initialize calls from one caller; memory sampled every `every` calls. The baseline, run first on the same
 * host, is as many `GET /health` calls: they touch no session, jti, bucket or object state, so whatever memory they
 * add is the platform's (workerd grows by itself under any load), not the motebit's. Judged two ways:
 *  - the motebit's own state: the caller's session rows stay within the per-caller cap (read from the database);
 *  - memory: over the last third of the flood, growth beyond what the baseline grew over its last third stays
 *    under 10% of the mean (or 16 MB). Growth the platform shows without any motebit work is not counted against us.
 * A cold heap (the flood run first after a start) grows until the runtime settles its heap size, which can fall in the
 * last third: so `every` initialize calls warm the host up before anything is sampled, and while the last third still
 * grows the flood goes on (up to half as many calls again), judged on the latest window of the same length. A leak
 * grows in every window and still fails; a heap that settles passes once the window is past it.
 */
export async function sessionFlood(host: Host, auth: string, o: { total: number; every: number; concurrency: number; maxSessionsPerCaller: number }): Promise<Outcome> {
  const failures: string[] = [];
  let refused = 0;
  const initializeCalls = () =>
    pool(o.every, o.concurrency, async () => {
      const a = await post(host.url, auth, INITIALIZE);
      if (a.status !== 200) refused++;
    });
  await initializeCalls();
  const baseline: number[] = [host.rssMb()];
  for (let done = 0; done < o.total; done += o.every) {
    await pool(o.every, o.concurrency, async () => {
      await (await fetch(`${host.url}/health`)).arrayBuffer();
    });
    baseline.push(host.rssMb());
  }
  const samples: number[] = [host.rssMb()];
  for (let done = 0; done < o.total; done += o.every) {
    await initializeCalls();
    samples.push(host.rssMb());
  }
  let verdict = judgeFlood(baseline, samples);
  const window = verdict.tail.length;
  let extra = 0;
  for (; !verdict.level && extra < o.total / 2; extra += o.every) {
    await initializeCalls();
    samples.push(host.rssMb());
    verdict = judgeFlood(baseline, samples, window);
  }
  const rows = (await post(host.url, auth, INITIALIZE)).status === 200;
  if (!verdict.level) failures.push(`session flood: memory grew ${verdict.excess.toFixed(0)} MB beyond the baseline's own growth over the last third (samples ${verdict.tail.map((m) => m.toFixed(0)).join(", ")} MB)`);
  if (refused > 0 || !rows) failures.push(`session flood: ${refused} initialize calls refused`);
  let stateLine: string;
  try {
    // The static token's caller: other scenarios' peers keep their own sessions beside it.
    const [{ n }] = host.query<{ n: number }>("SELECT COUNT(*) AS n FROM mcp_sessions WHERE caller_id = 'static'");
    stateLine = `${host.name} session flood: ${n} session rows kept for the flooding caller (cap ${o.maxSessionsPerCaller})`;
    if (n > o.maxSessionsPerCaller) failures.push(`session flood: ${n} session rows kept, over the per-caller cap ${o.maxSessionsPerCaller}`);
  } catch (e) {
    stateLine = `${host.name} session flood: session rows not readable while the host runs (${(e as Error).message})`;
  }
  return {
    lines: [
      `${host.name} baseline flood: ${o.total} GET /health calls (no motebit state) after ${o.every} warm-up initialize calls, memory MB every ${o.every}: ${baseline.map((m) => m.toFixed(0)).join(" → ")}`,
      `${host.name} session flood: ${o.total + extra} initialize calls (${extra} past the planned ${o.total} while still growing), memory MB every ${o.every}: ${samples.map((m) => m.toFixed(0)).join(" → ")}`,
      `${host.name} session flood: last ${window} samples grew ${verdict.growth.toFixed(0)} MB, the baseline's last third ${verdict.baselineGrowth.toFixed(0)} MB; ` +
        `excess ${verdict.excess.toFixed(0)} MB, allowed ${verdict.allowed.toFixed(0)} MB (${verdict.level ? "levels off" : "still growing"})`,
      stateLine,
    ],
    failures,
  };
}

/**
 * The flood's growth over its last `window` samples (by default its last third), less the baseline's over its last
 * third, against 10% of the mean (or 16 MB).
 */
export function judgeFlood(
  baseline: number[],
  samples: number[],
  window = samples.length - Math.floor((samples.length * 2) / 3),
): { level: boolean; tail: number[]; growth: number; baselineGrowth: number; excess: number; allowed: number } {
  const lastThird = (xs: number[]) => xs.slice(Math.floor((xs.length * 2) / 3));
  const tail = samples.slice(-window);
  const btail = lastThird(baseline);
  // Growth, not spread: a sample that dips (a collection) does not count as growth.
  const growth = Math.max(0, Math.max(...tail) - tail[0]);
  const baselineGrowth = Math.max(0, Math.max(...btail) - btail[0]);
  const mean = tail.reduce((a, b) => a + b, 0) / tail.length;
  const excess = Math.max(0, growth - baselineGrowth);
  const allowed = Math.max(16, mean * 0.1);
  return { level: excess <= allowed, tail, growth, baselineGrowth, excess, allowed };
}

interface Acked {
  memories: string[];
  receipts: string[];
  sessions: { auth: () => Promise<string>; id: string }[];
  tokens: string[];
}

/** Concurrent writers; SIGKILL at a random moment; restart; everything acknowledged is there and no used jti works again. */
export async function crashTest(
  host: Host,
  peers: Peer[],
  serverId: string,
  o: { kills: number; writers: number; minMs: number; maxMs: number; random: () => number },
): Promise<Outcome> {
  const failures: string[] = [];
  const acked: Acked = { memories: [], receipts: [], sessions: [], tokens: [] };
  let totalMemories = 0;
  let totalReceipts = 0;
  let sessionsOk = 0;
  let replaysAccepted = 0;
  let replaysTried = 0;
  const lost = { memories: 0, receipts: 0 };
  for (let k = 0; k < o.kills; k++) {
    let stopping = false;
    const writers = Array.from({ length: o.writers }, async (_, w) => {
      const peer = peers[w % peers.length];
      const auth = () => tokenFor(peer, serverId);
      let session: string | null = null;
      for (let i = 0; !stopping; i++) {
        try {
          const token = await auth();
          if (session === null) {
            const a = await post(host.url, token, INITIALIZE);
            if (a.status === 200 && a.session) {
              session = a.session;
              acked.sessions.push({ auth, id: session });
              acked.tokens.push(token);
            }
            continue;
          }
          const task = i % 3 === 0;
          const a = await post(
            host.url,
            token,
            task ? toolCall(i, "motebit_task", { prompt: `crash ${k}.${w}.${i}` }) : toolCall(i, "motebit_remember", { content: `crash ${k}.${w}.${i}` }),
            session,
          );
          const text = resultText(a);
          if (text === null) continue;
          acked.tokens.push(token);
          if (task) acked.receipts.push((JSON.parse(text) as ExecutionReceipt).task_id);
          else acked.memories.push((JSON.parse(text) as { node_id: string }).node_id);
        } catch {
          // The host went away under this request: it was never acknowledged.
          await sleep(5);
        }
      }
    });
    await sleep(o.minMs + o.random() * (o.maxMs - o.minMs));
    await host.kill();
    stopping = true;
    await Promise.all(writers);

    // Everything acknowledged so far is on disk, checked in the database itself.
    const memIds = new Set(host.query<{ id: string }>("SELECT id FROM memory_nodes").map((r) => r.id));
    const taskIds = new Set(host.query<{ task_id: string }>("SELECT task_id FROM receipts").map((r) => r.task_id));
    const lostMem = acked.memories.filter((id) => !memIds.has(id));
    const lostRec = acked.receipts.filter((id) => !taskIds.has(id));
    lost.memories += lostMem.length;
    lost.receipts += lostRec.length;
    if (lostMem.length) failures.push(`crash ${k}: ${lostMem.length} acknowledged memories missing`);
    if (lostRec.length) failures.push(`crash ${k}: ${lostRec.length} acknowledged receipts missing`);
    totalMemories = acked.memories.length;
    totalReceipts = acked.receipts.length;

    await host.start();
    // Sessions acknowledged in this round still serve; tokens used in any round are refused.
    const roundSessions = acked.sessions.splice(0);
    for (const s of roundSessions) {
      const a = await post(host.url, await s.auth(), { jsonrpc: "2.0", id: 1, method: "ping" }, s.id);
      if (a.status === 200) sessionsOk++;
      else failures.push(`crash ${k}: acknowledged session answered ${a.status}`);
    }
    const sample = acked.tokens.slice(-50);
    const replays = await Promise.all(sample.map((t) => post(host.url, t, INITIALIZE)));
    replaysTried += sample.length;
    replaysAccepted += replays.filter((a) => a.status === 200).length;
  }
  if (replaysAccepted) failures.push(`crash: ${replaysAccepted} used tokens accepted again after a restart`);
  return {
    lines: [
      `${host.name} crash test: ${o.kills} SIGKILLs under ${o.writers} concurrent writers; acknowledged memories present ${totalMemories - lost.memories}/${totalMemories}, receipts ${totalReceipts - lost.receipts}/${totalReceipts}`,
      `${host.name} crash test: ${sessionsOk} acknowledged sessions served after restart; ${replaysAccepted} of ${replaysTried} used tokens accepted again`,
    ],
    failures,
  };
}

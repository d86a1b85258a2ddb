// The CPU the local edge's workerd processes have used so far (the bench Worker with its Durable Objects and local KV,
// and wrangler dev's own proxy, which every workerd side passes alike),
// read from /proc: the steadier figure beside throughput on a shared machine, since a neighbour's load lowers
// requests/s but not the CPU a request costs. Linux only; elsewhere it answers null and the bench prints no CPU.
import { readdirSync, readFileSync } from "node:fs";

/** Clock ticks per second of /proc's utime and stime (USER_HZ, 100 on Linux). */
const TICKS_PER_S = 100;

/** ms of user + system CPU so far of the workerd processes in process group `pgid`, or null without /proc. */
export function workerdCpuMs(pgid: number): number | null {
  let pids: string[];
  try {
    pids = readdirSync("/proc").filter((d) => /^\d+$/.test(d));
  } catch {
    return null;
  }
  let ticks = 0;
  for (const pid of pids) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    } catch {
      continue; // gone since the listing
    }
    // "pid (comm) state ppid pgrp …": comm may hold spaces, so fields are counted after its closing parenthesis.
    const close = stat.lastIndexOf(")");
    const comm = stat.slice(stat.indexOf("(") + 1, close);
    const f = stat.slice(close + 2).split(" ");
    if (comm !== "workerd" || Number(f[2]) !== pgid) continue;
    ticks += Number(f[11]) + Number(f[12]); // utime, stime
  }
  return (ticks * 1000) / TICKS_PER_S;
}

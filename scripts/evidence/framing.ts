// Requests whose HTTP framing lies or is malformed, sent over a raw socket (fetch would fix them up): what status
// each host answers and how long it takes. Platform answers (workerd's, before the app runs) are reported, not judged;
// the checks are that our code never answers 5xx to what reaches it and that nothing hangs past the socket deadline.
import { connect } from "node:net";
import type { Outcome } from "./scenarios.js";

interface Case {
  name: string;
  head: string[];
  body: string;
}

const BODY = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping" });

const CASES: Case[] = [
  { name: "Content-Length 5,000,000, 40 bytes sent", head: ["Content-Length: 5000000"], body: BODY.slice(0, 40) },
  { name: "Content-Length 500, 40 bytes sent", head: ["Content-Length: 500"], body: BODY.slice(0, 40) },
  { name: "chunked, last chunk never sent", head: ["Transfer-Encoding: chunked"], body: `14\r\n${BODY.slice(0, 20)}\r\n` },
  { name: "Content-Length: -5", head: ["Content-Length: -5"], body: BODY },
  { name: "Content-Length: abc", head: ["Content-Length: abc"], body: BODY },
  { name: "two conflicting Content-Length", head: [`Content-Length: ${BODY.length}`, "Content-Length: 3"], body: BODY },
  { name: "Transfer-Encoding: gzip, chunked", head: ["Transfer-Encoding: gzip, chunked"], body: `${BODY.length.toString(16)}\r\n${BODY}\r\n0\r\n\r\n` },
];

/** Sends one raw request; resolves with the status line's code (0 = connection closed without one) and the time. */
function rawRequest(url: string, auth: string, c: Case, deadlineMs: number): Promise<{ status: number; ms: number }> {
  const { hostname, port } = new URL(url);
  const t0 = performance.now();
  return new Promise((resolve) => {
    const socket = connect(Number(port), hostname);
    let data = "";
    const done = (status: number) => {
      socket.destroy();
      resolve({ status, ms: performance.now() - t0 });
    };
    const timer = setTimeout(() => done(-1), deadlineMs);
    socket.on("connect", () => {
      const head = [
        "POST /mcp HTTP/1.1",
        `Host: ${hostname}:${port}`,
        `Authorization: ${auth}`,
        "Content-Type: application/json",
        "Accept: application/json",
        "Connection: close",
        ...c.head,
      ];
      socket.write(head.join("\r\n") + "\r\n\r\n" + c.body);
    });
    socket.on("data", (d) => {
      data += d;
      const m = /^HTTP\/1\.[01] (\d{3})/.exec(data);
      if (m) {
        clearTimeout(timer);
        done(Number(m[1]));
      }
    });
    socket.on("error", () => {
      clearTimeout(timer);
      done(0);
    });
    socket.on("close", () => {
      clearTimeout(timer);
      done(0);
    });
  });
}

/**
 * `judge`: whether every answer is this host's own (Node: its HTTP server and our app), so a 5xx or a hang is a
 * failure; under wrangler dev, workerd answers malformed framing before the Worker runs, so it is only reported.
 */
/** Whether the host still answers /health within 5 s. */
async function answers(url: string): Promise<boolean> {
  try {
    await fetch(new URL("/health", url), { signal: AbortSignal.timeout(5_000) });
    return true;
  } catch {
    return false;
  }
}

/**
 * Each case against a live host: a host that stops answering after one is reported (a failure when judged) and, when
 * `revive` is given, brought back before the next case, so every case meets a running server.
 */
export async function framing(hostName: string, url: string, auth: string, judge: boolean, revive?: () => Promise<void>): Promise<Outcome> {
  const lines: string[] = [];
  const failures: string[] = [];
  for (const c of CASES) {
    const r = await rawRequest(url, auth, c, 45_000);
    const shown = r.status === -1 ? "no answer" : r.status === 0 ? "connection closed, no status" : String(r.status);
    lines.push(`${hostName} framing: ${c.name} → ${shown} in ${r.ms.toFixed(0)} ms`);
    if (judge && (r.status >= 500 || r.status === -1)) failures.push(`${hostName} framing: ${c.name} → ${shown}`);
    if (await answers(url)) continue;
    lines.push(`${hostName} framing: the host stopped answering after "${c.name}"${revive ? "; restarted" : ""}`);
    if (judge) failures.push(`${hostName} framing: the host stopped answering after "${c.name}"`);
    await revive?.();
  }
  return { lines, failures };
}

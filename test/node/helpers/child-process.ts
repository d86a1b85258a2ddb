// Child processes for the Node tests: run one to completion under a SIGKILL deadline, or stop a long-running
// one with SIGTERM and a SIGKILL fallback, so no hung child outlives its test.
import { spawn, type ChildProcess } from "node:child_process";

export interface ProcessResult {
  /** Exit code; null when the process was killed by a signal (always so when timedOut). */
  code: number | null;
  stdout: string;
  stderr: string;
  /** The deadline passed and the process was SIGKILLed; stdout and stderr hold what it wrote until then. */
  timedOut: boolean;
}

/**
 * Spawns `command args`, feeds `input` to stdin (then closes it) and resolves once it exits, or once
 * `timeoutMs` has passed, after SIGKILL, with whatever it wrote. Rejects only if it could not be spawned.
 * Pick `timeoutMs` below the test's timeout, so the process is gone (and its output reported) before the test gives up.
 */
export function runToCompletion(
  command: string,
  args: string[],
  o: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string; timeoutMs: number },
): Promise<ProcessResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: o.cwd, env: o.env, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    let settled = false;
    const settle = (f: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      f();
    };
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      settle(() => resolve({ code: null, stdout, stderr, timedOut: true }));
    }, o.timeoutMs);
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", (e) => settle(() => reject(e)));
    child.on("close", (code) => settle(() => resolve({ code, stdout, stderr, timedOut: false })));
    // A child that exits without reading its stdin makes the write fail with EPIPE; the exit code tells the story.
    child.stdin.on("error", () => {});
    child.stdin.end(o.input ?? "");
  });
}

/**
 * SIGTERM, then SIGKILL if the process has not exited `graceMs` later. Resolves with what `exited` resolves
 * to (for a 'close' listener: the exit code, null when it had to be killed).
 */
export async function terminate<T>(child: ChildProcess, exited: Promise<T>, graceMs = 5_000): Promise<T> {
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
  try {
    return await exited;
  } finally {
    clearTimeout(timer);
  }
}

// Runs the real CLI (node local-stdio/bin/motebit-local.js …) as a child process.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, onTestFinished } from "vitest";
import { runToCompletion } from "../helpers/child-process.js";

const BIN = fileURLToPath(new URL("../../../local-stdio/bin/motebit-local.js", import.meta.url));

/** Below the CLI tests' 90 s test timeout, so a hung CLI is killed (and its output reported) before the test gives up. */
const CLI_TIMEOUT_MS = 60_000;

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Resolves when the CLI exits; if it is still running after 60 s it is SIGKILLed and the result (code null) says so on stderr. */
export async function runCli(args: string[], opts: { input?: string; cwd?: string } = {}): Promise<CliResult> {
  const r = await runToCompletion(process.execPath, [BIN, ...args], { cwd: opts.cwd, input: opts.input, timeoutMs: CLI_TIMEOUT_MS });
  const stderr = r.timedOut ? `${r.stderr}\n[run-cli: motebit-local ${args.join(" ")} killed after ${CLI_TIMEOUT_MS} ms]` : r.stderr;
  return { code: r.code, stdout: r.stdout, stderr };
}

/** The one JSON verdict `verify` prints. */
export function verdictOf(r: CliResult): Record<string, unknown> {
  const lines = r.stdout.trim().split("\n");
  if (lines.length !== 1) throw new Error(`expected one JSON line, got: ${r.stdout}\nstderr: ${r.stderr}`);
  return JSON.parse(lines[0]) as Record<string, unknown>;
}

/**
 * A fresh folder, removed when the current test finishes (or, made at module scope, after the file's tests).
 * Not for describe.concurrent / it.concurrent: there vitest cannot tell which test is current.
 */
export function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), "motebit-cli-"));
  const cleanup = () => rmSync(dir, { recursive: true, force: true });
  try {
    onTestFinished(cleanup);
  } catch {
    // Not inside a test (verify.test.ts makes its folder at module scope): clean up after the file.
    afterAll(cleanup);
  }
  return dir;
}

// Runs the real CLI (node local-stdio/bin/motebit-local.js …) as a child process.
import { spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const BIN = fileURLToPath(new URL("../../../local-stdio/bin/motebit-local.js", import.meta.url));

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(args: string[], opts: { input?: string; cwd?: string } = {}): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { cwd: opts.cwd, stdio: ["pipe", "pipe", "pipe"] });
    let stdout = "";
    let stderr = "";
    child.stdout.setEncoding("utf8").on("data", (d: string) => (stdout += d));
    child.stderr.setEncoding("utf8").on("data", (d: string) => (stderr += d));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(opts.input ?? "");
  });
}

/** The one JSON verdict `verify` prints. */
export function verdictOf(r: CliResult): Record<string, unknown> {
  const lines = r.stdout.trim().split("\n");
  if (lines.length !== 1) throw new Error(`expected one JSON line, got: ${r.stdout}\nstderr: ${r.stderr}`);
  return JSON.parse(lines[0]) as Record<string, unknown>;
}

export function tempDir(): string {
  return mkdtempSync(join(tmpdir(), "motebit-cli-"));
}

// Runs the real motebit-local CLI as a child process, and connects the real MCP SDK client to `serve`.
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { createServer as createNetServer } from "node:net";
import { join, resolve } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { runToCompletion, terminate } from "../../helpers/child-process.js";
import { AI_SETTING_NAMES } from "../../../../src/settings/ai.js";

export const REPO = resolve(import.meta.dirname, "../../../..");
export const BIN = join(REPO, "local-stdio/bin/motebit-local.js");

/** The parent's environment without any AI setting, so every test starts in direct mode unless it says otherwise. */
export function cleanEnv(extra: Record<string, string> = {}): Record<string, string> {
  const env: Record<string, string> = {};
  const ai = new Set<string>(AI_SETTING_NAMES);
  for (const [k, v] of Object.entries(process.env)) if (v !== undefined && !k.startsWith("ANTHROPIC_") && !ai.has(k)) env[k] = v;
  return { ...env, ...extra };
}

export interface RunResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs `motebit-local ...args` to completion, feeding `stdin` (then closing it); SIGKILLs it and rejects after `timeoutMs`. */
export async function runCli(args: string[], o: { stdin?: string; env?: Record<string, string>; timeoutMs?: number } = {}): Promise<RunResult> {
  const r = await runToCompletion(process.execPath, [BIN, ...args], { cwd: REPO, env: o.env ?? cleanEnv(), input: o.stdin, timeoutMs: o.timeoutMs ?? 20_000 });
  if (r.timedOut) throw new Error(`motebit-local ${args.join(" ")} did not finish; stderr: ${r.stderr}`);
  return { code: r.code, stdout: r.stdout, stderr: r.stderr };
}

export function tempDir(): { dir: string; cleanup(): void } {
  const dir = mkdtempSync(join(tmpdir(), "motebit-local-test-"));
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A real `init --dir dir`: dir/motebit.md and dir/motebit.key. Returns the identity file path. */
export async function initMotebit(dir: string, extra: string[] = []): Promise<string> {
  const r = await runCli(["init", "--dir", dir, ...extra]);
  if (r.code !== 0) throw new Error(`init failed: ${r.stderr}`);
  return join(dir, "motebit.md");
}

export interface StdioSession {
  client: Client;
  /** Everything the server wrote to stderr so far. */
  stderr(): string;
  close(): Promise<void>;
}

/** `motebit-local serve ...args` under the MCP SDK's own stdio client, stderr piped. */
export async function connectStdio(args: string[], env: Record<string, string> = cleanEnv()): Promise<StdioSession> {
  const transport = new StdioClientTransport({ command: process.execPath, args: [BIN, "serve", ...args], env, cwd: REPO, stderr: "pipe" });
  let stderr = "";
  transport.stderr?.on("data", (c) => (stderr += c));
  const client = new Client({ name: "motebit-local-test", version: "1.0.0" });
  try {
    await client.connect(transport);
  } catch (e) {
    throw new Error(`could not connect: ${(e as Error).message}; stderr: ${stderr}`);
  }
  return { client, stderr: () => stderr, close: () => client.close() };
}

/** tools/call, returning the first text block and the error flag. */
export async function callText(client: Client, name: string, args: Record<string, unknown> = {}): Promise<{ text: string; isError: boolean }> {
  const r = (await client.callTool({ name, arguments: args })) as { content: { type: string; text: string }[]; isError?: boolean };
  return { text: r.content[0]?.text ?? "", isError: r.isError === true };
}

/** A tools module (plain ES module) with one served tool and one localOnly tool. Returns its path. */
export function writeToolsModule(dir: string, name = "tools.mjs"): string {
  const path = join(dir, name);
  writeFileSync(
    path,
    `export default [
  {
    definition: {
      name: "shout",
      description: "Upper-cases the text it is given.",
      inputSchema: { type: "object", properties: { text: { type: "string" } }, required: ["text"] },
      risk: "R0_READ",
    },
    handler: (args) => ({ ok: true, data: String(args.text).toUpperCase() }),
  },
  {
    definition: {
      name: "read_diary",
      description: "Reads the owner's diary. Local only.",
      inputSchema: { type: "object", properties: { day: { type: "string" } }, required: ["day"] },
      risk: "R0_READ",
      localOnly: true,
    },
    handler: (args) => ({ ok: true, data: "diary for " + args.day + ": walked the dog" }),
  },
];
`,
  );
  return path;
}

/** A port nothing listens on right now. */
export async function freePort(): Promise<number> {
  const srv = createNetServer();
  await new Promise<void>((r) => srv.listen(0, "127.0.0.1", r));
  const { port } = srv.address() as { port: number };
  await new Promise((r) => srv.close(r));
  return port;
}

export interface HttpServe {
  /** Base URL as printed on stderr, e.g. http://127.0.0.1:3100 */
  url: string;
  stderr(): string;
  /** SIGTERM (SIGKILL if still running 5 s later), then the exit code (null if it had to be killed). */
  stop(): Promise<number | null>;
  /** SIGKILL, resolved once the process is gone. */
  kill(): Promise<void>;
}

/** `motebit-local serve --serve-transport http ...args`, resolved once it prints where it listens. */
export function startHttpServe(args: string[], env: Record<string, string> = cleanEnv()): Promise<HttpServe> {
  const child = spawn(process.execPath, [BIN, "serve", "--serve-transport", "http", ...args], { cwd: REPO, env, stdio: ["ignore", "pipe", "pipe"] });
  let stderr = "";
  const exited = new Promise<number | null>((r) => child.on("close", (code) => r(code)));
  return new Promise((done, fail) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      fail(new Error(`serve --serve-transport http did not start; stderr: ${stderr}`));
    }, 20_000);
    child.stderr.on("data", (c) => {
      stderr += c;
      const m = /serving over http at (http:\/\/\S+)\/mcp/.exec(stderr);
      if (m) {
        clearTimeout(timer);
        done({
          url: m[1],
          stderr: () => stderr,
          stop: () => terminate(child, exited),
          kill: async () => {
            child.kill("SIGKILL");
            await exited;
          },
        });
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      fail(new Error(`serve exited with ${code} before listening; stderr: ${stderr}`));
    });
  });
}

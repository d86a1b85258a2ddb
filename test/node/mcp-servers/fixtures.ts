// The MCP servers the tests connect a motebit to: the SDK-written fixtures in test/fixtures/mcp-servers, the
// registry's filesystem server, and a config file that names them.
import { spawn } from "node:child_process";
import { chmodSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { REPO } from "../local/helpers/local-cli.js";
import { terminate } from "../helpers/child-process.js";

export const STDIO_FIXTURE = join(REPO, "test/fixtures/mcp-servers/stdio-server.mjs");
const HTTP_FIXTURE = join(REPO, "test/fixtures/mcp-servers/http-server.mjs");
/** @modelcontextprotocol/server-filesystem's entry point, run with this Node. */
export const FILESYSTEM_SERVER = createRequire(import.meta.url).resolve("@modelcontextprotocol/server-filesystem/dist/index.js");

/** The one-pixel PNG the stdio fixture returns. */
export const PIXEL = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==";
export const TAG = /\n\[motebit:[0-9a-f]{8} key:[0-9a-f]{16}\]$/;

export function stdioFixture(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { command: process.execPath, args: [STDIO_FIXTURE], ...extra };
}

/** Writes dir/motebit.json (mode 0600) with these servers and any other keys; returns its path. */
export function writeConfig(dir: string, mcpServers: Record<string, unknown>, other: Record<string, unknown> = {}): string {
  const path = join(dir, "motebit.json");
  writeFileSync(path, JSON.stringify({ ...other, mcpServers }, null, 2));
  chmodSync(path, 0o600);
  return path;
}

export interface HttpFixture {
  url: string;
  stop(): Promise<unknown>;
}

/** The Streamable HTTP fixture on 127.0.0.1; every request must carry `x-fixture-key: key`. */
export function startHttpFixture(key: string): Promise<HttpFixture> {
  const child = spawn(process.execPath, [HTTP_FIXTURE, key], { stdio: ["ignore", "pipe", "inherit"] });
  const exited = new Promise((r) => child.on("close", r));
  return new Promise((done, fail) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      fail(new Error("the HTTP fixture did not start"));
    }, 20_000);
    let out = "";
    child.stdout.on("data", (c) => {
      out += c;
      const m = /listening (\S+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        done({ url: m[1], stop: () => terminate(child, exited) });
      }
    });
  });
}

/** True once no process has this pid (checked every 100 ms, up to `ms`). */
export async function processGone(pid: number, ms = 10_000): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 100))) {
    try {
      process.kill(pid, 0);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "ESRCH") return true;
    }
  }
  return false;
}

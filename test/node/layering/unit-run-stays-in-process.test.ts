// npm run test:unit is the in-process part of the Node tests (vitest.unit.config.ts): no test it runs may reach, through
// the test-side and motebit-local modules it imports, a child process, a socket or a worker thread. A test that needs
// one belongs in a folder outside UNIT_FOLDERS, or in NOT_UNIT.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { NOT_UNIT, UNIT_FOLDERS } from "../../../vitest.unit.config";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
// What starts a process, a thread or a server, or opens a socket: Node's modules, the Node server under Hono, the SDK's stdio client.
const OUT_OF_PROCESS = /^(node:(child_process|net|http|https|http2|worker_threads|cluster|dgram)|@hono\/node-server|@modelcontextprotocol\/sdk\/client\/stdio\.js)$/;
// Value imports and re-exports (a type-only import loads nothing), and dynamic imports.
const IMPORT = /(?:^|\s)(?:import|export)\s(?!type\s)[^;]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)/g;

function unitFiles(): string[] {
  const all = UNIT_FOLDERS.flatMap((f) =>
    (readdirSync(join(ROOT, "test/node", f), { recursive: true }) as string[]).map((p) => `test/node/${f}/${p}`),
  );
  return all.filter((p) => p.endsWith(".test.ts") && !NOT_UNIT.includes(p));
}

/** Test-side and motebit-local modules: the core (src/) has no node:* imports (the layering rules hold it to that). */
function followed(path: string): boolean {
  return (path.startsWith("test/") || path.startsWith("local-stdio/")) && /\.(ts|js|mjs)$/.test(path);
}

function resolveLocal(from: string, spec: string): string | null {
  const base = join(dirname(join(ROOT, from)), spec);
  for (const c of [base.replace(/\.js$/, ".ts"), base, `${base}.ts`, join(base, "index.ts")]) if (existsSync(c) && c.match(/\.\w+$/)) return relative(ROOT, c);
  return null;
}

/** The first out-of-process import `file` reaches, as the chain of modules that leads to it; null if none. */
function outOfProcess(file: string, seen = new Set<string>()): string[] | null {
  if (seen.has(file)) return null;
  seen.add(file);
  for (const m of readFileSync(join(ROOT, file), "utf8").matchAll(IMPORT)) {
    const spec = m[1] ?? m[2];
    if (OUT_OF_PROCESS.test(spec)) return [file, spec];
    if (!spec.startsWith(".")) continue;
    const next = resolveLocal(file, spec);
    if (next === null || !followed(next)) continue;
    const chain = outOfProcess(next, seen);
    if (chain) return [file, ...chain];
  }
  return null;
}

describe("the unit run", () => {
  it("holds tests, none of which reaches a child process, a socket or a worker thread", () => {
    const files = unitFiles();
    expect(files.length).toBeGreaterThan(100);
    const reaching = files.map((f) => outOfProcess(f)).filter((c): c is string[] => c !== null);
    expect(reaching.map((c) => c.join(" → "))).toEqual([]);
  });

  it("leaves out each NOT_UNIT file because it does reach one", () => {
    for (const f of NOT_UNIT) expect(outOfProcess(f), f).not.toBeNull();
  });

  it("would see one behind a helper: motebit-local's HTTP host, the CLI run as a child", () => {
    expect(outOfProcess("test/node/stateless/input-required-results.test.ts")?.slice(-2)).toEqual(["local-stdio/src/serve/http-host.ts", "@hono/node-server"]);
    expect(outOfProcess("test/node/cli/call.test.ts")?.at(-1)).toBe("node:child_process");
  });
});

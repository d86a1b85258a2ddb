// --tools PATH: an ES module (.js, .mjs or .ts) whose default export is the tool array. JavaScript loads through
// Node itself; TypeScript (and ES syntax in a .js file outside a "type": "module" package, which Node refuses)
// loads through tsx's scoped importer, imported only then so the CLI registers no TypeScript loader at start-up.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { extname, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { ToolRegistry } from "motebit-edge/core";
import { CliError } from "./cli-error.js";

const TYPESCRIPT = new Set([".ts", ".mts", ".cts", ".tsx"]);

type ModuleExports = { default?: unknown; resources?: unknown; prompts?: unknown };

/** A file tsx compiled to CommonJS arrives as { default: { __esModule: true, default: …, resources: … } }: take the inner exports. */
function moduleExports(mod: ModuleExports): ModuleExports {
  const d = mod.default as (ModuleExports & { __esModule?: unknown }) | undefined;
  return d !== null && typeof d === "object" && !Array.isArray(d) && d.__esModule === true ? d : mod;
}

async function importThroughTsx(url: string): Promise<ModuleExports> {
  const { tsImport } = await import("tsx/esm/api");
  return (await tsImport(url, import.meta.url)) as ModuleExports;
}

async function importModule(abs: string): Promise<ModuleExports> {
  const url = pathToFileURL(abs).href;
  if (TYPESCRIPT.has(extname(abs))) return importThroughTsx(url);
  try {
    return (await import(url)) as ModuleExports;
  } catch (e) {
    if (e instanceof SyntaxError) return importThroughTsx(url);
    throw e;
  }
}

export async function loadToolsModule(path: string): Promise<ToolRegistry> {
  const abs = resolve(path);
  if (!existsSync(abs)) throw new CliError(`tools module ${abs} does not exist`);
  let mod: ModuleExports;
  try {
    mod = await importModule(abs);
  } catch (e) {
    const syntax = syntaxErrorAt(abs, e);
    if (syntax) throw new CliError(`tools module ${syntax.at} has a syntax error: ${syntax.message}`);
    throw new CliError(`tools module ${abs} could not be loaded: ${firstLine(e)}`);
  }
  try {
    const exports = moduleExports(mod);
    return ToolRegistry.fromModule(exports.default, { resources: exports.resources, prompts: exports.prompts });
  } catch (e) {
    throw new CliError(`${abs}: ${firstLine(e)}`);
  }
}

/**
 * Where a syntax error is, as file:line[:column]. tsx (esbuild) names it in its message's second line; Node's own
 * SyntaxError does not carry it, so `node --check` is asked (only on this failure path: one short child process).
 */
function syntaxErrorAt(abs: string, e: unknown): { at: string; message: string } | null {
  const message = String((e as Error)?.message ?? e);
  const esbuild = /^Transform failed with \d+ errors?:\n(.+?):(\d+):(\d+): ERROR: (.*)$/m.exec(message);
  if (esbuild) return { at: `${esbuild[1]}:${esbuild[2]}:${esbuild[3]}`, message: esbuild[4] };
  if (!(e instanceof SyntaxError)) return null;
  const check = spawnSync(process.execPath, ["--check", abs], { encoding: "utf8", timeout: 10_000 });
  const line = /^(.+):(\d+)$/m.exec(check.stderr ?? "");
  return line ? { at: `${line[1]}:${line[2]}`, message: firstLine(e) } : null;
}

function firstLine(e: unknown): string {
  return String((e as Error)?.message ?? e).split("\n")[0];
}

// --tools PATH: an ES module (.js, .mjs or .ts) whose default export is the tool array, loaded by Node itself:
// Node ≥ 22.18 strips a .ts file's types (erasable syntax only: no enums, namespaces or parameter properties, and
// relative imports name the .ts file), and runs ES syntax in a .js file outside a "type": "module" package.
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { ToolRegistry } from "motebit-edge/core";
import { CliError } from "./cli-error.js";
import { withoutWarning } from "./quiet-warning.js";

type ModuleExports = { default?: unknown; resources?: unknown; prompts?: unknown };

/** What Node says when a .ts file uses syntax type stripping cannot erase (an enum, a namespace, a parameter property). */
const NOT_ERASABLE = "ERR_UNSUPPORTED_TYPESCRIPT_SYNTAX";
const NOT_ERASABLE_HINT = "Node runs a .ts tools module by stripping its types: write it without enums, namespaces and parameter properties, or compile it to .js";

/** A CommonJS module compiled from ES (tsc's __esModule) arrives as { default: { __esModule: true, default: …, resources: … } }: take the inner exports. */
function moduleExports(mod: ModuleExports): ModuleExports {
  const d = mod.default as (ModuleExports & { __esModule?: unknown }) | undefined;
  return d !== null && typeof d === "object" && !Array.isArray(d) && d.__esModule === true ? d : mod;
}

export async function loadToolsModule(path: string): Promise<ToolRegistry> {
  const abs = resolve(path);
  if (!existsSync(abs)) throw new CliError(`tools module ${abs} does not exist`);
  let mod: ModuleExports;
  try {
    // Node's note that a file in a package without "type": "module" was reparsed as a module is for developers.
    mod = await withoutWarning((_, { code }) => code === "MODULE_TYPELESS_PACKAGE_JSON", () => import(pathToFileURL(abs).href) as Promise<ModuleExports>);
  } catch (e) {
    const syntax = syntaxErrorAt(abs, e);
    if (syntax && (e as { code?: unknown }).code === NOT_ERASABLE) throw new CliError(`tools module ${syntax.at}: ${syntax.message} (${NOT_ERASABLE_HINT})`);
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
 * Where a syntax error is, as file:line[:column]. Node's type stripping names it at the top of the error's stack
 * (file:line, the lines up to it, carets from the column); a JavaScript SyntaxError does not carry it, so `node --check` is
 * asked (only on this failure path: one short child process).
 */
function syntaxErrorAt(abs: string, e: unknown): { at: string; message: string } | null {
  if (!(e instanceof SyntaxError)) return null;
  const stripped = /^(.+):(\d+)\n(?:.*\n)*?( *)\^/.exec(e.stack ?? "");
  if (stripped) return { at: `${stripped[1]}:${stripped[2]}:${stripped[3].length + 1}`, message: firstLine(e) };
  // As a module, from stdin: `node --check` on a typeless .js file would judge it as CommonJS and pass ES syntax.
  const check = spawnSync(process.execPath, ["--input-type=module", "--check"], { input: readFileSync(abs), encoding: "utf8", timeout: 10_000 });
  const line = /^\[stdin\]:(\d+)$/m.exec(check.stderr ?? "");
  return line ? { at: `${abs}:${line[1]}`, message: firstLine(e) } : null;
}

function firstLine(e: unknown): string {
  return String((e as Error)?.message ?? e).split("\n")[0];
}

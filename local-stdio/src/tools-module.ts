// --tools PATH: an ES module (.js, .mjs or .ts) whose default export is the tool array. JavaScript loads through
// Node itself; TypeScript (and ES syntax in a .js file outside a "type": "module" package, which Node refuses)
// loads through tsx's scoped importer, imported only then so the CLI registers no TypeScript loader at start-up.
import { existsSync } from "node:fs";
import { extname, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { ToolRegistry } from "../../src/tools/registry.js";
import { CliError } from "./cli-error.js";

const TYPESCRIPT = new Set([".ts", ".mts", ".cts", ".tsx"]);

/** A file tsx compiled to CommonJS arrives as { default: { __esModule: true, default: … } }: take the inner default. */
function defaultExport(mod: { default?: unknown }): unknown {
  const d = mod.default as { __esModule?: unknown; default?: unknown } | undefined;
  return d !== null && typeof d === "object" && !Array.isArray(d) && d.__esModule === true ? d.default : d;
}

async function importThroughTsx(url: string): Promise<{ default?: unknown }> {
  const { tsImport } = await import("tsx/esm/api");
  return (await tsImport(url, import.meta.url)) as { default?: unknown };
}

async function importModule(abs: string): Promise<{ default?: unknown }> {
  const url = pathToFileURL(abs).href;
  if (TYPESCRIPT.has(extname(abs))) return importThroughTsx(url);
  try {
    return (await import(url)) as { default?: unknown };
  } catch (e) {
    if (e instanceof SyntaxError) return importThroughTsx(url);
    throw e;
  }
}

export async function loadToolsModule(path: string): Promise<ToolRegistry> {
  const abs = resolve(path);
  if (!existsSync(abs)) throw new CliError(`tools module ${abs} does not exist`);
  let mod: { default?: unknown };
  try {
    mod = await importModule(abs);
  } catch (e) {
    throw new CliError(`tools module ${abs} could not be loaded: ${firstLine(e)}`);
  }
  try {
    return ToolRegistry.fromModule(defaultExport(mod));
  } catch (e) {
    throw new CliError(`${abs}: ${firstLine(e)}`);
  }
}

function firstLine(e: unknown): string {
  return String((e as Error)?.message ?? e).split("\n")[0];
}

// --tools PATH: an ES module (.js, .mjs or .ts) whose default export is the tool array. Loaded through tsx's
// scoped importer, so a .ts file works anywhere and a .js file with ES syntax works outside a "type": "module"
// package too.
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { tsImport } from "tsx/esm/api";
import { ToolRegistry } from "../../src/tools/registry.js";
import { CliError } from "./cli-error.js";

type ModuleExports = { default?: unknown; resources?: unknown; prompts?: unknown };

/** A file tsx compiled to CommonJS arrives as { default: { __esModule: true, default: …, resources: … } }: take the inner exports. */
function moduleExports(mod: ModuleExports): ModuleExports {
  const d = mod.default as (ModuleExports & { __esModule?: unknown }) | undefined;
  return d !== null && typeof d === "object" && !Array.isArray(d) && d.__esModule === true ? d : mod;
}

export async function loadToolsModule(path: string): Promise<ToolRegistry> {
  const abs = resolve(path);
  if (!existsSync(abs)) throw new CliError(`tools module ${abs} does not exist`);
  let mod: { default?: unknown };
  try {
    mod = (await tsImport(pathToFileURL(abs).href, import.meta.url)) as { default?: unknown };
  } catch (e) {
    throw new CliError(`tools module ${abs} could not be loaded: ${firstLine(e)}`);
  }
  try {
    const exports = moduleExports(mod);
    return ToolRegistry.fromModule(exports.default, { resources: exports.resources, prompts: exports.prompts });
  } catch (e) {
    throw new CliError(`${abs}: ${firstLine(e)}`);
  }
}

function firstLine(e: unknown): string {
  return String((e as Error)?.message ?? e).split("\n")[0];
}

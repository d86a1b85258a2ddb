// --tools PATH: an ES module (.js, .mjs or .ts — tsx is loaded) whose default export is the tool array.
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { ToolRegistry } from "../../src/tools/registry.js";
import { CliError } from "./cli-error.js";

export async function loadToolsModule(path: string): Promise<ToolRegistry> {
  const abs = resolve(path);
  if (!existsSync(abs)) throw new CliError(`tools module ${abs} does not exist`);
  let mod: { default?: unknown };
  try {
    mod = (await import(pathToFileURL(abs).href)) as { default?: unknown };
  } catch (e) {
    throw new CliError(`tools module ${abs} could not be loaded: ${firstLine(e)}`);
  }
  try {
    return ToolRegistry.fromModule(mod.default);
  } catch (e) {
    throw new CliError(`${abs}: ${firstLine(e)}`);
  }
}

function firstLine(e: unknown): string {
  return String((e as Error)?.message ?? e).split("\n")[0];
}

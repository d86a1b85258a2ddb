// Command-line flags, read by node:util parseArgs: `--name value` or `--name=value`, each known to the command, each
// at most once (a "list" flag may repeat: its values are kept in order); "--" ends the flags. parseArgs splits the
// words and the checks here turn every problem into a usage error whose one-line message names the flag (parseArgs'
// own strict errors name neither the command nor the flags it knows).
import { parseArgs } from "node:util";

/** The one exit-code rule of every command, printed in its --help (verify refines 1 and 2 in its own). */
export const EXIT_STATUS =
  "Exit status: 0 done; 1 the command ran and failed (unreadable or invalid file, refused overwrite, port in use, …);\n" +
  "2 usage error (unknown flag, missing or extra argument, bad flag value).";

export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "UsageError";
  }
}

export type FlagSpec = Record<string, "string" | "boolean" | "list">;

export interface ParsedFlags {
  values: Map<string, string | true | string[]>;
  positionals: string[];
}

export function parseFlags(argv: readonly string[], spec: FlagSpec, command: string): ParsedFlags {
  const options = Object.fromEntries(Object.entries(spec).map(([name, kind]) => [name, { type: kind === "boolean" ? ("boolean" as const) : ("string" as const) }]));
  const { tokens } = parseArgs({ args: [...argv], options, strict: false, allowPositionals: true, tokens: true });
  const values = new Map<string, string | true | string[]>();
  const positionals: string[] = [];
  for (const t of tokens) {
    if (t.kind === "positional") positionals.push(t.value);
    if (t.kind !== "option") continue;
    // "-x" (or "-xyz", which parseArgs splits into one token per letter) is no flag of any command.
    const shown = t.rawName.startsWith("--") ? t.rawName : argv[t.index];
    const kind = t.rawName.startsWith("--") && Object.hasOwn(spec, t.name) ? spec[t.name] : undefined;
    if (kind === undefined) throw new UsageError(`unknown flag ${shown} for "${command}" (known: ${Object.keys(spec).map((k) => `--${k}`).join(", ")})`);
    if (values.has(t.name) && kind !== "list") throw new UsageError(`${shown} is given more than once`);
    if (kind === "boolean") {
      if (t.inlineValue) throw new UsageError(`${shown} takes no value`);
      values.set(t.name, true);
      continue;
    }
    // parseArgs takes the next word as the value even when it is a flag: "--identity --direct" lacks its value.
    const value = t.value;
    if (value === undefined || (!t.inlineValue && value.startsWith("--"))) throw new UsageError(`${shown} needs a value`);
    if (value === "") throw new UsageError(`${shown} needs a non-empty value`);
    if (kind === "list") values.set(t.name, [...((values.get(t.name) as string[] | undefined) ?? []), value]);
    else values.set(t.name, value);
  }
  return { values, positionals };
}

/** The string value of a flag, or undefined when absent. */
export function flagString(f: ParsedFlags, name: string): string | undefined {
  const v = f.values.get(name);
  return typeof v === "string" ? v : undefined;
}

/** Every value of a "list" flag, in the order given ([] when absent). */
export function flagList(f: ParsedFlags, name: string): string[] {
  const v = f.values.get(name);
  return Array.isArray(v) ? v : [];
}

/** A whole number in [min, max], or a usage error naming the flag. */
export function flagInteger(f: ParsedFlags, name: string, min: number, max: number): number | undefined {
  const v = flagString(f, name);
  if (v === undefined) return undefined;
  const n = /^\d+$/.test(v) ? Number(v) : NaN;
  if (!Number.isSafeInteger(n) || n < min || n > max) throw new UsageError(`--${name} must be a whole number from ${min} to ${max}, got "${v}"`);
  return n;
}

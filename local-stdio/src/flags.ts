// Command-line flags: `--name value` or `--name=value`, each known to the command, each at most once
// (a "list" flag may repeat: its values are kept in order).
// Anything else is a usage error whose one-line message names the flag.

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
  const values = new Map<string, string | true | string[]>();
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (!arg.startsWith("--") || arg === "--") {
      positionals.push(arg);
      continue;
    }
    const eq = arg.indexOf("=");
    const name = eq < 0 ? arg.slice(2) : arg.slice(2, eq);
    const kind = Object.hasOwn(spec, name) ? spec[name] : undefined;
    if (kind === undefined) throw new UsageError(`unknown flag --${name} for "${command}" (known: ${Object.keys(spec).map((k) => `--${k}`).join(", ")})`);
    if (values.has(name) && kind !== "list") throw new UsageError(`--${name} is given more than once`);
    if (kind === "boolean") {
      if (eq >= 0) throw new UsageError(`--${name} takes no value`);
      values.set(name, true);
      continue;
    }
    const value = eq >= 0 ? arg.slice(eq + 1) : argv[++i];
    if (value === undefined || (eq < 0 && value.startsWith("--"))) throw new UsageError(`--${name} needs a value`);
    if (value === "") throw new UsageError(`--${name} needs a non-empty value`);
    if (kind === "list") values.set(name, [...((values.get(name) as string[] | undefined) ?? []), value]);
    else values.set(name, value);
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

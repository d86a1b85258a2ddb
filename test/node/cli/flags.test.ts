// Every command's flags go through parseFlags (node:util parseArgs underneath): both spellings, repeatable lists,
// "--" ending the flags, and each problem one usage-error line that names the flag.
import { describe, expect, it } from "vitest";
import { flagList, flagString, parseFlags, UsageError, type FlagSpec } from "../../../local-stdio/src/flags.js";

const SPEC: FlagSpec = { dir: "string", force: "boolean", header: "list" };
const parse = (argv: string[]) => parseFlags(argv, SPEC, "demo");

function usageError(argv: string[]): string {
  try {
    parse(argv);
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    return (e as Error).message;
  }
  throw new Error(`expected a UsageError for ${JSON.stringify(argv)}`);
}

describe("parseFlags", () => {
  it("reads --name value and --name=value, booleans, repeated lists in order and positionals around them", () => {
    const f = parse(["add", "--dir", "d", "x", "--force", "--header=A: 1", "--header", "B: 2", "-"]);
    expect(flagString(f, "dir")).toBe("d");
    expect(f.values.get("force")).toBe(true);
    expect(flagList(f, "header")).toEqual(["A: 1", "B: 2"]);
    expect(f.positionals).toEqual(["add", "x", "-"]);
    expect(flagList(parse([]), "header")).toEqual([]);
  });

  it("a value may start with one dash; after -- every word is a positional", () => {
    expect(flagString(parse(["--dir", "-1"]), "dir")).toBe("-1");
    expect(flagString(parse(["--dir=--x"]), "dir")).toBe("--x");
    expect(parse(["a", "--", "--force", "--nope"]).positionals).toEqual(["a", "--force", "--nope"]);
  });

  it.each([
    [["--colour", "blue"], 'unknown flag --colour for "demo" (known: --dir, --force, --header)'],
    [["--colour=blue"], 'unknown flag --colour for "demo" (known: --dir, --force, --header)'],
    [["-f"], 'unknown flag -f for "demo" (known: --dir, --force, --header)'],
    [["-fx"], 'unknown flag -fx for "demo" (known: --dir, --force, --header)'],
    [["--__proto__"], 'unknown flag --__proto__ for "demo" (known: --dir, --force, --header)'],
    [["--dir", "a", "--dir", "b"], "--dir is given more than once"],
    [["--force", "--force"], "--force is given more than once"],
    [["--force=yes"], "--force takes no value"],
    [["--dir"], "--dir needs a value"],
    [["--dir", "--force"], "--dir needs a value"],
    [["--dir="], "--dir needs a non-empty value"],
    [["--dir", ""], "--dir needs a non-empty value"],
    [["--header"], "--header needs a value"],
  ])("refuses %j: %s", (argv, message) => {
    expect(usageError(argv)).toBe(message);
  });
});

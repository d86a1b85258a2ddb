// Every flag a command accepts is in its --help and on its docs/motebit-local.md line, and that page names no flag the code refuses.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import * as init from "../../../local-stdio/src/commands/init.js";
import * as verify from "../../../local-stdio/src/commands/verify.js";
import * as serve from "../../../local-stdio/src/commands/serve.js";
import * as token from "../../../local-stdio/src/commands/token.js";
import * as memory from "../../../local-stdio/src/commands/memory.js";
import * as receipts from "../../../local-stdio/src/commands/receipts.js";
import * as create from "../../../local-stdio/src/commands/create.js";
import * as credentials from "../../../local-stdio/src/commands/credentials.js";
import * as fleet from "../../../local-stdio/src/commands/fleet.js";
import * as call from "../../../local-stdio/src/commands/call.js";
import * as oauth from "../../../local-stdio/src/commands/oauth.js";
import * as log from "../../../local-stdio/src/commands/log.js";
import { EXIT_STATUS } from "../../../local-stdio/src/flags.js";

const PAGE = readFileSync(new URL("../../../docs/motebit-local.md", import.meta.url), "utf8");
const COMMANDS = { init, create, verify, serve, call, token, memory, receipts, log, credentials, fleet, oauth };
const flagsIn = (text: string) => new Set([...text.matchAll(/--([a-z][a-z-]*)/g)].map((m) => m[1]));

/** The page's synopsis of one command (in its Commands section's first code block): its line and the indented lines that continue it. */
function documentedSynopsis(name: string): string {
  const section = PAGE.slice(PAGE.indexOf("\n## Commands"));
  const block = section.slice(section.indexOf("```") + 3);
  const lines = block.slice(0, block.indexOf("```")).split("\n");
  // A command may have several synopsis lines (fleet create / list / get): all of them, with their continuations.
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i].startsWith(`npx motebit-local ${name} `)) continue;
    out.push(lines[i]);
    while (i + 1 < lines.length && /^\s+\[?--/.test(lines[i + 1])) out.push(lines[++i]);
  }
  expect(out.length, `docs/motebit-local.md has no "npx motebit-local ${name}" synopsis line`).toBeGreaterThan(0);
  return out.join("\n");
}

describe("the CLI's flags, as documented", () => {
  for (const [name, mod] of Object.entries(COMMANDS)) {
    it(`${name}: --help and the docs/motebit-local.md synopsis name exactly the flags the code accepts`, () => {
      const accepted = new Set(Object.keys(mod.SPEC));
      const help = mod.command.help;
      for (const f of accepted) expect(help, `--${f} in ${name} --help`).toContain(`--${f}`);
      expect(flagsIn(documentedSynopsis(name))).toEqual(accepted);
    });
  }

  it("every command's --help states the exit status rule; verify states its own", () => {
    for (const [name, mod] of Object.entries(COMMANDS)) {
      if (name === "verify") expect(mod.command.help).toMatch(/Exit status .*0 valid, 1 invalid, 2 usage error/s);
      else expect(mod.command.help, name).toContain(EXIT_STATUS);
    }
  });
});

// motebit-local: one command table, each entry a module with help text and run(argv) → exit code.
// Add a command by adding a line to COMMANDS.
import { command as create } from "./commands/create.js";
import { command as init } from "./commands/init.js";
import { command as verify } from "./commands/verify.js";
import { command as serve } from "./commands/serve.js";
import { command as memory } from "./commands/memory.js";
import { command as receipts } from "./commands/receipts.js";
import { command as serverJson } from "./commands/server-json.js";
import { command as credentials } from "./commands/credentials.js";
import { command as token } from "./commands/token.js";
import { command as mcp } from "./commands/mcp.js";
import { command as fleet } from "./commands/fleet.js";
import { command as call } from "./commands/call.js";
import { command as oauth } from "./commands/oauth.js";
import { command as log } from "./commands/log.js";
import { readFileSync } from "node:fs";
import { provideWordTable, useNativeSha256 } from "motebit-edge/core";
import { nodeSha256Hex } from "./serve/node-sha256.js";
import type { Command } from "./commands/command.js";
import { EXIT_STATUS, UsageError } from "./flags.js";
import { wordTableFile } from "./word-table-file.js";

const COMMANDS: Record<string, Command> = { init, create, verify, serve, call, memory, receipts, log, "server-json": serverJson, credentials, token, mcp, fleet, oauth };

function usage(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((n) => n.length));
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`);
  return ["Usage: motebit-local <command> [options]", "", "Commands:", ...lines, "",
    'Run "motebit-local <command> --help" for a command\'s options; "motebit-local --version" for the version.', "", EXIT_STATUS].join("\n");
}

export async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    process.stderr.write(usage() + "\n");
    return 2;
  }
  if (name === "--version" || name === "-v" || name === "version") {
    // ../package.json from src/ (tsx) and from dist/ (the published bundle) alike.
    const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as { version: string };
    process.stdout.write(`motebit-local ${version}\n`);
    return 0;
  }
  if (name === "--help" || name === "-h" || name === "help") {
    const target = rest[0] !== undefined && Object.hasOwn(COMMANDS, rest[0]) ? COMMANDS[rest[0]] : undefined;
    process.stdout.write((target ? target.help : usage()) + "\n");
    return 0;
  }
  if (!Object.hasOwn(COMMANDS, name)) {
    process.stderr.write(`motebit-local: unknown command "${name}"\n\n${usage()}\n`);
    return 2;
  }
  const cmd = COMMANDS[name];
  // After "--" the words are someone else's (mcp add NAME -- COMMAND --help).
  const own = rest.includes("--") ? rest.slice(0, rest.indexOf("--")) : rest;
  if (own.includes("--help") || own.includes("-h")) {
    process.stdout.write(cmd.help + "\n");
    return 0;
  }
  // Beside the bundle (scripts/build.mjs copies it): ../dist/ from src/ and from dist/ alike.
  provideWordTable(wordTableFile(new URL("../dist/word-table.json", import.meta.url)));
  try {
    return await cmd.run(rest);
  } catch (e) {
    if (e instanceof UsageError) {
      process.stderr.write(`motebit-local ${name}: ${e.message}\nRun "motebit-local ${name} --help" for usage.\n`);
      return 2;
    }
    process.stderr.write(`motebit-local ${name}: ${e instanceof Error ? e.message : String(e)}\n`);
    return 1;
  }
}

// A reader that stops early (`verify - | head -1`) closes the pipe: that is the reader's choice, not a failure to
// report with a stack. Anything else on stdout still fails loudly.
process.stdout.on("error", (e: NodeJS.ErrnoException) => {
  if (e.code !== "EPIPE") throw e;
  process.exit(process.exitCode ?? 0);
});

// Every command hashes through the core's port (log leaves and nodes, receipts, tokens): node:crypto's is native.
useNativeSha256(nodeSha256Hex);
process.exitCode = await main(process.argv.slice(2));

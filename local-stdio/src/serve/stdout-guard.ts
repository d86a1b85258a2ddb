// In stdio mode stdout belongs to the JSON-RPC stream alone. Claimed before anything else is loaded, so a
// chatty tools module or a stray console.log lands on stderr instead of corrupting the stream.
import type { Writable } from "node:stream";

/** Diverts process.stdout and console.log/info/debug to stderr; returns the only writer left for the real stdout. */
export function claimStdout(): Writable {
  const stdout = process.stdout;
  const write = stdout.write.bind(stdout) as Writable["write"];
  const divert = process.stderr.write.bind(process.stderr) as typeof process.stdout.write;
  process.stdout.write = divert;
  console.log = console.info = console.debug = console.error;
  return {
    write,
    once: (event: string, fn: () => void) => stdout.once(event, fn),
  } as unknown as Writable;
}


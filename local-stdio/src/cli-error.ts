import { StartupError } from "motebit-edge/core";

/** A command cannot run: bad input or an identity that does not hold together. The CLI prints the message as one line and exits 1. */
export class CliError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CliError";
  }
}

/** The core's settings errors (StartupError, naming where the value came from) as the CLI's one line; anything else unchanged. */
export function asCliError<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    throw e instanceof StartupError ? new CliError(e.message) : e;
  }
}

/** A command cannot run: bad input or an identity that does not hold together. The CLI prints the message as one line and exits 1. */
export class CliError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "CliError";
  }
}

// One CLI command: the shape every entry of the command table (cli.ts) has.
export interface Command {
  /** One line for the overview. */
  summary: string;
  /** Full --help text. */
  help: string;
  /** Runs the command; resolves to the process exit code. */
  run(argv: string[]): Promise<number>;
}

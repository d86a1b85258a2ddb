// The --scope of "oauth allow" and "fleet allow": checked with the server's own parser, so a typo is a usage error
// before anything is signed or sent; and checked again in the answer, since a server from before scopes ignores it
// and grants all four.
import { parseScope } from "motebit-edge/core";
import { CliError } from "../cli-error.js";
import { UsageError } from "../flags.js";

/** The scopes --scope names, canonical; undefined when it is not given (the server grants all four). */
export function allowScope(action: string, text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  if (action !== "allow") throw new UsageError("--scope goes with allow only");
  const scope = parseScope(text);
  if (scope === null) throw new UsageError(`--scope must be space-separated scopes of: ${parseScope(undefined)}; got "${text}"`);
  return scope;
}

/** A grant wider than asked (an older server, answering no scope, granted all four) is an error, not a success. */
export function checkAllowedScope(answer: unknown, scope: string | undefined): void {
  if (scope === undefined) return;
  const granted = (answer as { scope?: unknown } | null)?.scope ?? parseScope(undefined);
  if (granted !== scope) {
    throw new CliError(`the motebit granted scope "${String(granted)}", not "${scope}" (a release from before allow --scope); revoke the client if that is too much`);
  }
}

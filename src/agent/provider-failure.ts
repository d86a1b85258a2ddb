// A model call that failed, said the way an operator can act on it: which provider, which URL answered, with what
// status. The same words go to the host's log (once per failed turn) and into the failed receipt or tool error, so
// a wrong ANTHROPIC_BASE_URL reads "anthropic: https://…/v1/messages answered 404 Not Found", not "Not Found".
import { APICallError, RetryError } from "ai";
import type { LlmProvider } from "../ports.js";

const MAX_MESSAGE = 300;

/** The URL without what could be a credential: user info and query string. */
function shownUrl(raw: string): string {
  try {
    const u = new URL(raw);
    u.username = "";
    u.password = "";
    u.search = "";
    return u.href;
  } catch {
    return "(unparseable URL)";
  }
}

/** "<provider>: <url> answered <status> <message>" for an HTTP failure, "<provider>: <message>" otherwise. */
export function describeModelFailure(e: unknown, provider: string): string {
  const last = RetryError.isInstance(e) ? e.lastError : e;
  const attempts = RetryError.isInstance(e) ? ` (${e.errors.length} attempts)` : "";
  // fetch's own errors quote the URL whole: every URL in the message is shown without its credentials too.
  const message = (last instanceof Error ? last.message : String(last)).replace(/https?:\/\/[^\s"'<>]+/g, shownUrl).slice(0, MAX_MESSAGE);
  if (!APICallError.isInstance(last)) return `${provider}: ${message}${attempts}`;
  const answer = last.statusCode === undefined ? `could not be reached: ${message}` : `answered ${last.statusCode} ${message}`;
  return `${provider}: ${shownUrl(last.url)} ${answer}${attempts}`;
}

/**
 * For the AI loop's one catch: a failure of the model (not the turn's own timeout or cancellation, which `signal`
 * shows) is logged once and comes back as an Error carrying the description; anything else comes back unchanged.
 */
export function reportModelFailure(e: unknown, llm: LlmProvider, signal: AbortSignal, log: (line: string) => void): unknown {
  if (signal.aborted) return e;
  const described = describeModelFailure(e, llm.provider);
  log(`model call failed: ${described}`);
  return new Error(described);
}

// GET one public JSON document of a motebit (its log's head and proofs, its server.json): bounded in time and size,
// and an unreachable server is a CliError naming the URL.
import { CliError } from "./cli-error.js";

const FETCH_MS = 15_000;
const MAX_ANSWER_CHARS = 1024 * 1024;

/** The status and the parsed body (undefined when the answer is not JSON). */
export async function fetchPublicJson(url: string, fetchFn: typeof fetch = fetch): Promise<{ status: number; body: unknown }> {
  let res: Response;
  try {
    res = await fetchFn(url, { headers: { accept: "application/json" }, signal: AbortSignal.timeout(FETCH_MS) });
  } catch (e) {
    throw new CliError(`cannot reach ${url}: ${(e as Error).message}`);
  }
  const text = await res.text();
  if (text.length > MAX_ANSWER_CHARS) throw new CliError(`${url} answered more than 1 MiB`);
  try {
    return { status: res.status, body: JSON.parse(text) as unknown };
  } catch {
    return { status: res.status, body: undefined };
  }
}

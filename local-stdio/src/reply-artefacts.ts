// What `motebit-local verify` finds inside an MCP reply pasted or piped as it came: a JSON-RPC response (or a
// Streamable HTTP SSE stream of them), a tools/call result or a resources/read result. The artefact — a receipt,
// usually — sits escaped in a text block, followed by the identity tag line, which is dropped here.
import { stripIdentityTag } from "motebit-edge/core";

/** The reply was understood but holds no artefact: a JSON-RPC error, a tool error, an empty stream. */
export class ReplyError extends Error {}

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The data of each event of an SSE stream (lines "data: …" joined per event), or null when `text` is not one. */
function sseData(text: string): string[] | null {
  const first = text.trimStart().split(/\r?\n/, 1)[0] ?? "";
  if (!/^(event|data|id|retry):|^:/.test(first)) return null;
  const events: string[] = [];
  for (const block of text.split(/\r?\n\r?\n/)) {
    const data = block.split(/\r?\n/).filter((l) => l.startsWith("data:")).map((l) => l.slice(5).replace(/^ /, ""));
    if (data.length > 0) events.push(data.join("\n"));
  }
  return events;
}

/** The texts of a tools/call or resources/read result, identity tag lines dropped; null when `r` is neither. */
function resultTexts(r: Json): string[] | null {
  const blocks = Array.isArray(r.content) ? r.content : Array.isArray(r.contents) ? r.contents : null;
  if (blocks === null) return null;
  const texts = blocks.filter(isObject).map((b) => b.text).filter((t): t is string => typeof t === "string");
  if (r.isError === true) throw new ReplyError(`the tool answered with an error: ${texts.map((t) => stripIdentityTag(t).trim()).join(" ") || "(no text)"}`);
  return texts.map((t) => stripIdentityTag(t).trim()).filter((t) => t !== "");
}

/** One JSON-RPC message's artefact texts: [] for a notification or request (an SSE stream carries progress too). */
function messageTexts(m: Json): string[] {
  if (isObject(m.error)) throw new ReplyError(`the reply is a JSON-RPC error: ${String(m.error.code)} ${String(m.error.message)}`);
  if (!isObject(m.result)) return [];
  const texts = resultTexts(m.result);
  if (texts === null) throw new ReplyError("the reply's result is neither a tool answer nor a resource read");
  return texts;
}

/**
 * The artefact texts inside `text` when it is an MCP reply (JSON-RPC response, SSE stream, or a bare tool or
 * resource result); null when it is not one, so the caller reads it as an artefact itself.
 */
export function artefactsInReply(text: string): string[] | null {
  const events = sseData(text);
  if (events !== null) {
    const messages = events.map(parse);
    if (!messages.every(isObject)) throw new ReplyError("an event of the SSE stream is not a JSON-RPC message");
    const texts = messages.flatMap(messageTexts);
    if (texts.length === 0) throw new ReplyError("the SSE stream holds no result");
    return texts;
  }
  const whole = parse(text.trim());
  if (!isObject(whole)) return null;
  if (whole.jsonrpc === "2.0") {
    const texts = messageTexts(whole);
    if (texts.length === 0) throw new ReplyError("the JSON-RPC message holds no result");
    return texts;
  }
  // A result as an SDK client prints it: { content: [...] } or { contents: [...] }; a receipt has neither.
  return "task_id" in whole ? null : resultTexts(whole);
}

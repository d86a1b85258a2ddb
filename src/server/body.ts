// Request bodies are read against a byte cap: the declared Content-Length is checked first, and the
// streamed length too, since a chunked body declares nothing.

export type BodyRead = { ok: true; bytes: Uint8Array } | { ok: false; why: "too_large" | "incomplete" };

/** False when the declared Content-Length already exceeds the cap. */
export function declaredLengthWithin(contentLength: string | null, maxBytes: number): boolean {
  if (contentLength === null) return true;
  const n = Number(contentLength);
  return !(Number.isFinite(n) && n > maxBytes);
}

/** An over-cap body is read to its end (and dropped) up to this many times the cap, then cut off. */
const DRAIN_FACTOR = 8;

/**
 * Reads and drops the rest of an over-cap body, so the 413 leaves on a clean connection: cancelling the request
 * stream mid-body makes local workerd restart the Worker under the next request (a 503). Past `limit` bytes a
 * sender that keeps going is cut off instead.
 */
async function discardRest(reader: ReadableStreamDefaultReader<Uint8Array>, seen: number, limit: number): Promise<void> {
  for (let total = seen; total <= limit; ) {
    const { done, value } = await reader.read();
    if (done) return;
    total += value.byteLength;
  }
  await reader.cancel();
}

/**
 * A request's body against the cap. A body that declares a length within the cap cannot run past it (HTTP framing
 * ends it there), so it is read whole by the host's own reader — under Node that skips building a web stream for
 * every request; any other body is streamed and counted.
 */
export async function readRequestBody(request: Request, maxBytes: number, drainBytes?: number): Promise<BodyRead> {
  const declared = request.headers.get("Content-Length");
  if (declared === null || !/^\d+$/.test(declared) || Number(declared) > maxBytes) return readBodyCapped(request.body, maxBytes, drainBytes);
  let bytes: Uint8Array;
  try {
    bytes = new Uint8Array(await request.arrayBuffer());
  } catch {
    return { ok: false, why: "incomplete" };
  }
  // Fail closed should a host ever hand over more than was declared.
  return bytes.byteLength > maxBytes ? { ok: false, why: "too_large" } : { ok: true, bytes };
}

/** `drainBytes`: how far an over-cap body is read and dropped before it is cut off (default DRAIN_FACTOR × the cap). */
export async function readBodyCapped(body: ReadableStream<Uint8Array> | null, maxBytes: number, drainBytes = maxBytes * DRAIN_FACTOR): Promise<BodyRead> {
  if (body === null) return { ok: true, bytes: new Uint8Array(0) };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        await discardRest(reader, total, drainBytes);
        return { ok: false, why: "too_large" };
      }
      chunks.push(value);
    }
  } catch {
    // The sender went away mid-body (or sent less than it declared): nothing of it is used.
    return { ok: false, why: "incomplete" };
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.byteLength;
  }
  return { ok: true, bytes };
}

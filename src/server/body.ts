// Request bodies are read against a byte cap: the declared Content-Length is checked first, and the
// streamed length too, since a chunked body declares nothing.

export type BodyRead = { ok: true; bytes: Uint8Array } | { ok: false };

/** False when the declared Content-Length already exceeds the cap. */
export function declaredLengthWithin(contentLength: string | null, maxBytes: number): boolean {
  if (contentLength === null) return true;
  const n = Number(contentLength);
  return !(Number.isFinite(n) && n > maxBytes);
}

export async function readBodyCapped(body: ReadableStream<Uint8Array> | null, maxBytes: number): Promise<BodyRead> {
  if (body === null) return { ok: true, bytes: new Uint8Array(0) };
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel();
      return { ok: false };
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.byteLength;
  }
  return { ok: true, bytes };
}

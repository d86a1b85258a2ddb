// The oversized OAuth bodies both runtimes' tests send (issue 42 item 15): the sizes that made wrangler dev exit
// before the cap, and a body that streams without a declared length.
const KB = 1024;

export const OVERSIZED_OAUTH_BODIES = [
  { path: "/token", size: 200 * KB, type: "application/json" },
  { path: "/authorize", size: 200 * KB, type: "text/plain" },
  { path: "/register", size: 1024 * KB, type: "application/json" },
  { path: "/oauth/owner", size: 1024 * KB, type: "application/json" },
];

/** `size` bytes in 16 KiB chunks, with no length a server could read ahead. */
export function streamOf(size: number): ReadableStream<Uint8Array> {
  const chunk = new TextEncoder().encode("x".repeat(16 * KB));
  let sent = 0;
  return new ReadableStream({
    pull(c) {
      if (sent >= size) return c.close();
      sent += chunk.length;
      c.enqueue(chunk);
    },
  });
}

// @cloudflare/vitest-pool-workers 0.15.1 closes each test file's runner WebSocket from the Node side without a close
// frame; workerd reports every such close as "exception = workerd/api/web-socket.c++:…: disconnected: WebSocket peer
// disconnected", and the pool's log handler writes it out (stdout or stderr by its level): one exception line per
// test file in a green run, one of them after the summary line. Later pool releases drop exactly this message in
// that handler (their ignore list), but they need wrangler ≥ 4.87, which exits on Node < 22 (STACK.md). Until the
// pin moves, the same one message is dropped here, in the process where the pool writes it; every other line,
// workerd's included, passes untouched.
const PEER_DISCONNECTED = /^exception = workerd\/api\/web-socket\.c\+\+:\d+: disconnected: WebSocket peer disconnected\n?$/;

export function dropPoolDisconnectNoise(): void {
  for (const stream of [process.stdout, process.stderr]) {
    const write = stream.write.bind(stream) as (...args: unknown[]) => boolean;
    stream.write = ((chunk: unknown, ...rest: unknown[]) => {
      if (typeof chunk === "string" && PEER_DISCONNECTED.test(chunk)) {
        (rest.find((a) => typeof a === "function") as (() => void) | undefined)?.();
        return true;
      }
      return write(chunk, ...rest);
    }) as typeof stream.write;
  }
}

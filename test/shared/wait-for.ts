// Waiting in a test for something another party does (a tool starting, a line logged, a relay answering), bounded so
// a miss fails with what was awaited instead of at the test's timeout.

/** Polls `check` every 50 ms until it returns a value other than undefined/false, or throws after `timeoutMs` with `what`. */
export async function waitFor<T>(what: string, check: () => T | undefined | false | Promise<T | undefined | false>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await check();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

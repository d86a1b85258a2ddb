// Waiting in a test for something another party does (a tool starting, a signal seen), bounded so a miss fails
// with what was awaited instead of at the test's timeout.

/** Resolves once `check()` holds, looking every 10 ms; throws naming `what` after `timeoutMs`. */
export async function until(check: () => boolean, what: string, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

// Debian's headless Chromium (CHROMIUM overrides /usr/bin/chromium) driven by playwright-core, on a fresh profile,
// with nothing of its own reaching the network: the one launch every interop browser check uses.
import { chromium, type BrowserContext } from "playwright-core";

/** `profile`: a fresh, empty user-data-dir the caller removes; `extraArgs` go after the fixed flags. */
export function launchChromium(profile: string, extraArgs: string[] = []): Promise<BrowserContext> {
  return chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
    headless: true,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      ...extraArgs,
    ],
  });
}

/**
 * Runs a browser check to its end: `main` prints its PASS/FAIL lines; the process exits 1 when `failed()` counts any,
 * when `main` throws, or when `deadlineMs` passes (CI must end even when a browser or a host hangs), and 0 otherwise.
 * `cleanUp` stops whatever the check started, in every case.
 */
export function runBrowserCheck(o: { what: string; deadlineMs: number; main: () => Promise<void>; cleanUp: () => Promise<void>; failed: () => number }): void {
  const deadline = setTimeout(() => {
    process.stderr.write(`interop: the ${o.what} did not finish in ${o.deadlineMs / 1000} s\n`);
    void o.cleanUp().finally(() => process.exit(1));
  }, o.deadlineMs);
  o.main()
    .then(
      () => o.failed() === 0,
      (e) => {
        process.stderr.write(`interop: ${(e as Error).stack ?? e}\n`);
        return false;
      },
    )
    .then(async (passed) => {
      await o.cleanUp();
      clearTimeout(deadline);
      process.exit(passed ? 0 : 1);
    });
}

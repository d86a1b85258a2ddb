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

// The Node tests spawn local-stdio/bin/motebit-local.js, which runs the built bundle: build it from the current
// sources once per run (esbuild, well under a second), so a fresh clone and an edited source both test what ships.
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

export default function setup(): void {
  execFileSync(process.execPath, [fileURLToPath(new URL("../../local-stdio/scripts/build.mjs", import.meta.url))], { stdio: "inherit" });
}

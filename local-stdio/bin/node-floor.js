// The supported Node floor is this package's engines.node (">=22"): below it, one line on stderr says what to
// install, and the command still runs (the code works on Node 20, which is past its end of life and untested).
// Plain JavaScript so the repository's `prepare` (on npm ci) can run it before anything is built.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const { engines } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
const FLOOR = Number(/\d+/.exec(engines.node)[0]);

/** The warning for `version` (default: the running Node), or "" when it is supported. */
export function nodeFloorWarning(version = process.versions.node) {
  if (Number(version.split(".")[0]) >= FLOOR) return "";
  return `motebit supports Node ${FLOOR} or newer; this is Node ${version}: install Node ${FLOOR} LTS from https://nodejs.org/ (or \`nvm install ${FLOOR}\`)\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.stderr.write(nodeFloorWarning());

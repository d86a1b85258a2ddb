// The supported Node floor is this package's engines.node (">=22.18": Babel 8, which `agents` pulls in, needs
// ^22.18): below it, one line on stderr says what to install, and the command still runs (untested there).
// Plain JavaScript so the repository's `prepare` (on npm ci) can run it before anything is built.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const { engines } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
const [, MAJOR, MINOR = "0"] = /(\d+)(?:\.(\d+))?/.exec(engines.node);
const FLOOR = [Number(MAJOR), Number(MINOR)];

/** The warning for `version` (default: the running Node), or "" when it is supported. */
export function nodeFloorWarning(version = process.versions.node) {
  const [major, minor] = version.split(".").map(Number);
  if (major > FLOOR[0] || (major === FLOOR[0] && minor >= FLOOR[1])) return "";
  const floor = `${FLOOR[0]}.${FLOOR[1]}`;
  return `motebit supports Node ${floor} or newer; this is Node ${version}: install Node ${FLOOR[0]} LTS from https://nodejs.org/ (or \`nvm install ${FLOOR[0]}\`)\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) process.stderr.write(nodeFloorWarning());

// The supported Node floor is this package's engines.node (">=22.18": node:sqlite and the SQLite options the state
// needs). Below it nothing works (Node 20 has no node:sqlite), so the CLI stops at once with one line saying what to
// install. Plain JavaScript so the repository's `prepare` (on npm ci) can run it before anything is built.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const { engines } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
const FLOOR = /(\d+)\.(\d+)/.exec(engines.node).slice(1).map(Number);

/** The one line for `version` (default: the running Node) below the floor, or "" when it is supported. */
export function nodeFloorError(version = process.versions.node) {
  const [major, minor] = version.split(".").map(Number);
  if (major > FLOOR[0] || (major === FLOOR[0] && minor >= FLOOR[1])) return "";
  return `motebit needs Node ${FLOOR.join(".")} or newer; this is Node ${version}: install Node ${FLOOR[0]} LTS from https://nodejs.org/ (or \`nvm install ${FLOOR[0]}\`)\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const line = nodeFloorError();
  if (line) {
    process.stderr.write(line);
    process.exit(1);
  }
}

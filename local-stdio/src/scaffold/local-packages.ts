// Where the motebit packages this CLI runs from came from, so a project created by it can depend on the very same
// ones before anything is published: a repository checkout (its two package folders) or an install from tarballs
// (npm install ./motebit-*.tgz, npx --package ./motebit-local-….tgz: the tarballs the install recorded).
import { existsSync, readFileSync } from "node:fs";
import { join, resolve, sep } from "node:path";

export interface LocalPackages {
  /** npm dependency specs, "file:<absolute path>". */
  edge: string;
  local: string;
}

const readJson = (path: string): Record<string, unknown> | null => {
  try {
    return JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>;
  } catch {
    return null;
  }
};

const MARKER = `${sep}node_modules${sep}`;

/** The motebit-edge repository this CLI runs from (local-stdio/ inside it), or null when it was installed. */
export function checkoutRoot(ownDir: string): string | null {
  if (ownDir.includes(MARKER)) return null;
  const repo = resolve(ownDir, "..");
  return readJson(join(repo, "package.json"))?.name === "motebit-edge" ? repo : null;
}

/** null when this CLI came from the registry (or from anything else it cannot name a local source for). */
export function localPackages(ownDir: string): LocalPackages | null {
  const at = ownDir.lastIndexOf(MARKER);
  if (at === -1) {
    const repo = checkoutRoot(ownDir);
    return repo === null ? null : { edge: `file:${repo}`, local: `file:${ownDir}` };
  }
  // An install: the hidden lockfile beside the packages says where each one was resolved from.
  const project = ownDir.slice(0, at);
  const lock = readJson(join(project, "node_modules", ".package-lock.json"));
  const packages = (lock?.packages ?? {}) as Record<string, { resolved?: string }>;
  const tarball = (name: string): string | null => {
    const resolved = packages[`node_modules/${name}`]?.resolved;
    if (resolved === undefined || !resolved.startsWith("file:")) return null;
    const path = resolve(project, resolved.slice("file:".length));
    return existsSync(path) ? `file:${path}` : null;
  };
  const edge = tarball("motebit-edge");
  const local = tarball("motebit-local");
  return edge !== null && local !== null ? { edge, local } : null;
}

// Reading the repository's Markdown the way GitHub renders it: pages, their relative links, and heading anchors.
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { dirname, join, relative } from "node:path";

export const ROOT = fileURLToPath(new URL("../../../", import.meta.url));

/** README.md and every docs/*.md, as paths relative to the repository root. */
export function markdownPages(): string[] {
  const docs = readdirSync(join(ROOT, "docs")).filter((f) => f.endsWith(".md")).map((f) => `docs/${f}`);
  return ["README.md", ...docs.sort()];
}

export function read(path: string): string {
  return readFileSync(join(ROOT, path), "utf8");
}

// Fenced blocks and inline code hold examples, not links.
function withoutCode(md: string): string {
  return md.replace(/^```[\s\S]*?^```/gm, "").replace(/`[^`\n]*`/g, "code");
}

/** Every link target that is neither absolute (scheme) nor protocol-relative. */
export function relativeLinks(md: string): string[] {
  const out: string[] = [];
  for (const m of withoutCode(md).matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) {
    const target = m[1];
    if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith("//")) continue;
    out.push(target);
  }
  return out;
}

/** GitHub's heading anchors: lower case, punctuation dropped, each space a hyphen, repeats numbered. */
export function anchors(md: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const m of md.replace(/^```[\s\S]*?^```/gm, "").matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const text = m[1].replace(/\[([^\]]*)\]\([^)]*\)/g, "$1").replace(/`/g, "");
    const base = text.trim().toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, "").replace(/\s/g, "-");
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.add(n === 0 ? base : `${base}-${n}`);
  }
  return out;
}

/** `target` as written in the page at `from`, resolved to a path relative to the root (anchor split off). */
export function resolveLink(from: string, target: string): { path: string; anchor: string | null } {
  const hash = target.indexOf("#");
  const file = hash < 0 ? target : target.slice(0, hash);
  const anchor = hash < 0 ? null : decodeURIComponent(target.slice(hash + 1));
  const path = file === "" ? from : relative(ROOT, join(ROOT, dirname(from), decodeURIComponent(file)));
  return { path, anchor };
}

/** The repository's text files (tracked, or new and not ignored), as paths relative to the root. */
export function repositoryTextFiles(): string[] {
  const listed = execFileSync("git", ["ls-files", "-z", "--cached", "--others", "--exclude-standard"], { cwd: ROOT, encoding: "utf8" });
  return listed
    .split("\0")
    .filter((p) => p !== "" && p !== "package-lock.json" && !/\.(png|jpe?g|gif|ico|wasm|tgz|gz|sqlite)$/i.test(p))
    .filter((p) => existsSync(join(ROOT, p))); // tracked but deleted in this work tree
}

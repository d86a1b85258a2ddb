// The bench's own promise: a paraphrase question shares no content word with its memory. Content words are
// what is left after function words; "deploy" and "deployment" count as shared (one is a prefix of the other).
const FUNCTION_WORDS = new Set(
  ("a an and are as at be but by can do does did for from has have how he her his i if in into is it its me my no not of on or our " +
    "she so should that the their them then there these they this to was we were what when where which who why will with you your " +
    "am been being get got go going must need now each every any about after before up out over too very all s")
    .split(" "),
);

export function sharedContentWords(a: string, b: string): string[] {
  const words = (t: string) => [...t.toLowerCase().matchAll(/[\p{L}\p{N}]+/gu)].map((m) => m[0]).filter((w) => !FUNCTION_WORDS.has(w));
  const bw = words(b);
  return words(a).filter((w) => bw.some((x) => x === w || (Math.min(x.length, w.length) >= 4 && (x.startsWith(w) || w.startsWith(x)))));
}

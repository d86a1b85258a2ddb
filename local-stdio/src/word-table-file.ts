// The word table in Node: data/word-table.json read from a file at the first embed (the build copies it beside the
// bundle), so it is neither in the CLI's JavaScript nor read by a command that never embeds.
import { readFile } from "node:fs/promises";
import type { WordTableData, WordTableSource } from "motebit-edge/core";

export function wordTableFile(file: URL): WordTableSource {
  return async () => JSON.parse(await readFile(file, "utf8")) as WordTableData;
}

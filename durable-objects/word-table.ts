// The word table in the Worker: data/word-table.json as a JSON module (wrangler and esbuild bundle a .json import
// with no module rule), imported at the first embed, so an object that never embeds never evaluates it.
import type { WordTableData, WordTableSource } from "../src/index.js";

export const edgeWordTable: WordTableSource = async () => (await import("../data/word-table.json")).default as WordTableData;

// Every Node test process gets the word table the way motebit-local does: data/word-table.json read from its file.
import { wordTableFile } from "../../local-stdio/src/word-table-file.js";
import { provideWordTable } from "../../src/memory/word-table.js";

provideWordTable(wordTableFile(new URL("../../data/word-table.json", import.meta.url)));

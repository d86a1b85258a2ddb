// Every workerd test gets the word table the way the edge does: data/word-table.json as a JSON module.
import { edgeWordTable } from "../../durable-objects/word-table.js";
import { provideWordTable } from "../../src/memory/word-table.js";

provideWordTable(edgeWordTable);

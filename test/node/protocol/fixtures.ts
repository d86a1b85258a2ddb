// The golden vectors (copied from the shared contract into test/fixtures so a clone tests on its own).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import vectorsJson from "../../fixtures/vectors/vectors.json";

export const vectors = vectorsJson;
export const identityFile = readFileSync(fileURLToPath(new URL("../../fixtures/vectors/identity-minimal.md", import.meta.url)), "utf8");
export const demo = vectors.keys.demo_seq_01_20;
export const fill = vectors.keys.fill_01;
export const receipt = vectors.minimal_receipt.receipt;
export const receiptJson = JSON.stringify(receipt);

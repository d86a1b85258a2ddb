// motebit-local's synchronous SHA-256: node:crypto's one-shot hash, behind the core's Sha256HexSync port. The log
// hashes a leaf and a node or more per receipt, and each task hashes its prompt and result: 1–3 µs each here against
// 3–20 µs in JS (@noble/hashes, what the core uses when no host plugs one in).
import { hash } from "node:crypto";
import type { Sha256HexSync } from "motebit-edge/core";

export const nodeSha256Hex: Sha256HexSync = (data) => hash("sha256", data, "hex");

// Protocol-core throughput beside the raw WebCrypto Ed25519 rate on a message of the same size, measured
// in the same run: the ratio is what our framing (canonical JSON, base64url, checks) leaves of the crypto.
// Each pair is measured in alternating rounds and the best round of each kept, so load on a shared machine
// skews both sides alike. Run: npx tsx bench/crypto/run.ts   (bounded: about 20 s)
import {
  canonicalJson, createSigner, mintBearerToken, parseBearerToken, sha256Hex, signReceipt, utf8, verifyBearerToken, verifyReceipt,
  type UnsignedReceipt,
} from "../../src/protocol/index.js";

const WINDOW_MS = 500;
const ROUNDS = 3;
const SEED = "0102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f20";
const PKCS8_PREFIX = "302e020100300506032b657004220420";

/** Operations per second of `op`, run back to back for the window after a short warm-up. */
async function rate(op: () => Promise<unknown> | unknown): Promise<number> {
  for (let i = 0; i < 200; i++) await op();
  let n = 0;
  const start = performance.now();
  let now = start;
  while (now - start < WINDOW_MS) {
    for (let i = 0; i < 50; i++) await op();
    n += 50;
    now = performance.now();
  }
  return (n * 1000) / (now - start);
}

/** Best-of-rounds rates of `ours` and `raw`, measured alternately. */
async function pair(ours: () => Promise<unknown> | unknown, raw: () => Promise<unknown> | unknown): Promise<[number, number]> {
  let a = 0;
  let b = 0;
  for (let r = 0; r < ROUNDS; r++) {
    b = Math.max(b, await rate(raw));
    a = Math.max(a, await rate(ours));
  }
  return [a, b];
}

function hex(s: string): Uint8Array<ArrayBuffer> {
  return new Uint8Array(s.match(/../g)!.map((b) => parseInt(b, 16)));
}

async function rawKeys() {
  const der = new Uint8Array([...hex(PKCS8_PREFIX), ...hex(SEED)]);
  const priv = await crypto.subtle.importKey("pkcs8", der, "Ed25519", true, ["sign"]);
  const jwk = await crypto.subtle.exportKey("jwk", priv);
  const raw = Uint8Array.from(atob(jwk.x!.replace(/-/g, "+").replace(/_/g, "/")), (c) => c.charCodeAt(0));
  const pub = await crypto.subtle.importKey("raw", raw, "Ed25519", false, ["verify"]);
  return { priv, pub };
}

function row(label: string, ours: number, rawLabel: string, raw: number, unit = "/s"): string {
  const f = (x: number) => (x >= 100 ? Math.round(x).toLocaleString("en-US") : x.toFixed(1));
  return `${label.padEnd(28)} ${f(ours).padStart(10)} ${unit.padEnd(5)} | ${rawLabel.padEnd(30)} ${f(raw).padStart(10)} ${unit.padEnd(5)} | ratio ${(ours / raw).toFixed(2)}`;
}

const started = performance.now();
const signer = await createSigner(SEED);
const { priv, pub } = await rawKeys();

const body: UnsignedReceipt = {
  task_id: crypto.randomUUID(), motebit_id: "65b60673-d6ed-884b-b01c-2c222d82ada0", device_id: crypto.randomUUID(),
  submitted_at: 1767225600000, completed_at: 1767225601234, status: "completed", result: "The API is healthy: 200 OK in 83 ms.",
  tools_used: ["read_url"], memories_formed: 0, prompt_hash: await sha256Hex("check the API"), result_hash: await sha256Hex("ok"),
  relay_task_id: crypto.randomUUID(), invocation_origin: "agent-to-agent",
};
const receipt = await signReceipt(body, signer);
const { signature: _sig, ...signedPart } = receipt;
const receiptMsg = utf8(canonicalJson(signedPart)); // exactly the bytes a receipt signature covers
const receiptSig = new Uint8Array(await crypto.subtle.sign("Ed25519", priv, receiptMsg));

const token = await mintBearerToken({ mid: body.motebit_id, did: body.device_id, aud: "mcp:call", sub: body.motebit_id, ttlMs: 4e12 }, signer);
const parsed = parseBearerToken(token);
if (!parsed.ok) throw new Error("bench token does not parse");
const tokenMsg = parsed.payloadBytes as Uint8Array<ArrayBuffer>;
const tokenSig = parsed.signature as Uint8Array<ArrayBuffer>;

if (!(await verifyReceipt(receipt)).valid || !(await verifyBearerToken(token, signer.publicKeyHex)).ok) throw new Error("bench inputs do not verify");

const results: string[] = [];
const [signed, rawSign] = await pair(() => signReceipt(body, signer), () => crypto.subtle.sign("Ed25519", priv, receiptMsg));
results.push(row("receipts signed", signed, `raw sign (${receiptMsg.length} B)`, rawSign));
const [verified, rawVerify] = await pair(() => verifyReceipt(receipt), () => crypto.subtle.verify("Ed25519", pub, receiptSig, receiptMsg));
results.push(row("receipts verified", verified, `raw verify (${receiptMsg.length} B)`, rawVerify));
const [tokens, rawTokenVerify] = await pair(
  () => verifyBearerToken(token, signer.publicKeyHex),
  () => crypto.subtle.verify("Ed25519", pub, tokenSig, tokenMsg),
);
results.push(row("bearer tokens verified", tokens, `raw verify (${tokenMsg.length} B)`, rawTokenVerify));

// canonical JSON throughput on a receipt with a 64 KiB result, beside plain JSON.stringify of the same object
const big = { ...receipt, result: "lorem ipsum dolor sit amet, ".repeat(2341), tools_used: Array.from({ length: 50 }, (_, i) => `tool_${i}`) };
const bigBytes = utf8(canonicalJson(big)).length;
const mb = (opsPerSec: number) => (opsPerSec * bigBytes) / 1e6;
const [canon, plain] = await pair(() => canonicalJson(big), () => JSON.stringify(big));
results.push(row("canonical JSON", mb(canon), `JSON.stringify (${Math.round(bigBytes / 1024)} KiB)`, mb(plain), "MB/s"));

console.log(`motebit protocol core — Node ${process.version}, WebCrypto Ed25519, best of ${ROUNDS} alternating ${WINDOW_MS} ms rounds, sequential awaits`);
for (const r of results) console.log(r);
console.log(`(${((performance.now() - started) / 1000).toFixed(1)} s)`);

// The evidence runs' HTTP client: peers with their own keys, a fresh signed token per request, MCP over fetch.
import { createSigner, mintBearerToken, sovereignMotebitId, type Signer } from "../../src/protocol/index.js";

export interface Peer {
  id: string;
  signer: Signer;
}

/** `count` peers with fixed test seeds (never for real use). */
export async function makePeers(count: number): Promise<Peer[]> {
  return Promise.all(
    Array.from({ length: count }, async (_, i) => {
      const signer = await createSigner((0x40 + i).toString(16).padStart(2, "0").repeat(32));
      return { id: await sovereignMotebitId(signer.publicKeyHex), signer };
    }),
  );
}

export function knownCallersJson(peers: Peer[]): string {
  return JSON.stringify(Object.fromEntries(peers.map((p) => [p.id, { public_key: p.signer.publicKeyHex, trust: "verified" }])));
}

export async function tokenFor(peer: Peer, serverId: string): Promise<string> {
  return `Bearer motebit:${await mintBearerToken({ mid: peer.id, did: "evidence", aud: "mcp:call", sub: serverId, ttlMs: 4 * 60_000 }, peer.signer)}`;
}

export interface Answer {
  status: number;
  session: string | null;
  body: string;
}

export async function post(url: string, auth: string, message: unknown, session?: string, timeoutMs = 30_000): Promise<Answer> {
  const headers: Record<string, string> = { Authorization: auth, "Content-Type": "application/json", Accept: "application/json" };
  if (session) headers["Mcp-Session-Id"] = session;
  const res = await fetch(`${url}/mcp`, { method: "POST", headers, body: JSON.stringify(message), signal: AbortSignal.timeout(timeoutMs) });
  return { status: res.status, session: res.headers.get("Mcp-Session-Id"), body: await res.text() };
}

export const INITIALIZE = {
  jsonrpc: "2.0",
  id: 0,
  method: "initialize",
  params: { protocolVersion: "2025-03-26", capabilities: {}, clientInfo: { name: "evidence", version: "1" } },
};

export function toolCall(id: number, name: string, args: Record<string, unknown>) {
  return { jsonrpc: "2.0", id, method: "tools/call", params: { name, arguments: args } };
}

/** The tool result's first text, without the identity tag line. */
export function resultText(a: Answer): string | null {
  if (a.status !== 200) return null;
  const r = JSON.parse(a.body) as { result?: { content?: { text: string }[]; isError?: boolean } };
  if (!r.result?.content?.[0] || r.result.isError) return null;
  const text = r.result.content[0].text;
  return text.slice(0, text.lastIndexOf("\n[motebit:"));
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** Runs `work` for items 0..n-1 with at most `concurrency` in flight. */
export async function pool(n: number, concurrency: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, n) }, async () => {
      while (next < n) await work(next++);
    }),
  );
}

// Run by `npm run interop:client` under tsx with `@motebit/*` mapped to a reference checkout's packages: the reference
// McpClientAdapter against one host. Prints one PASS/FAIL line per check; the host and its callers come in argv[2].
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { motebitCredentialSource } from "../../src/client/index.js";

// The reference packages resolve only under the lane's tsconfig (`@motebit/*` → the checkout), so they are imported
// by a name this repository's typecheck does not follow, and typed here by the little the lane uses.
interface ToolResult { ok?: boolean; data?: unknown; error?: string }
interface Adapter {
  connect(): Promise<void>;
  disconnect(): Promise<void>;
  getTools(): { name: string }[];
  executeTool(name: string, args: Record<string, unknown>): Promise<ToolResult>;
  getAndResetDelegationReceipts(): unknown[];
  readonly isConnected: boolean;
  readonly verifiedIdentity: { verified: boolean; motebit_id?: string } | null;
  readonly serverConfig: { motebitPublicKey?: string; toolManifestHash?: string };
}
const MCP_CLIENT = "@motebit/mcp-client";
const CRYPTO = "@motebit/crypto";
const { McpClientAdapter, ManifestPinningVerifier } = (await import(MCP_CLIENT)) as {
  McpClientAdapter: new (config: Record<string, unknown>) => Adapter;
  ManifestPinningVerifier: new () => unknown;
};
const { verifyExecutionReceipt } = (await import(CRYPTO)) as { verifyExecutionReceipt: (receipt: unknown, publicKey: Uint8Array) => Promise<boolean> };

interface Target {
  scope: string;
  url: string;
  motebitId: string;
  publicKeyHex: string;
  callerSeedHex: string;
  callerMotebitId: string;
  staticToken: string;
  verifyCli: string;
  tsx: string;
  tsconfig: string;
  /** stdio: the command and args of motebit-local serve over stdio (node only). */
  stdio?: { command: string; args: string[] };
}

const t = JSON.parse(process.argv[2]) as Target;
let failures = 0;
function check(name: string, ok: boolean, detail: string): void {
  if (!ok) failures++;
  process.stdout.write(`${ok ? "PASS" : "FAIL"} ${t.scope}: ${name} — ${detail}\n`);
}
const hexBytes = (hex: string) => Uint8Array.from(hex.match(/../g)!.map((b) => parseInt(b, 16)));
/** A result's text on one line (the adapter wraps it in [EXTERNAL_DATA …] markers). */
const text = (r: ToolResult) => (typeof r.data === "string" ? r.data : JSON.stringify(r.data ?? r.error ?? "")).replace(/\s+/g, " ");
/** The text a tool answered, inside the adapter's external-data wrapping. */
const answered = (r: ToolResult, expected: string) => r.ok !== false && new RegExp(`(^|\\] )${expected} \\[motebit:`).test(text(r));

async function attempt(name: string, run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (e) {
    check(name, false, (e as Error).message.split("\n")[0].slice(0, 300));
  }
}

async function withCredentialSource(): Promise<void> {
  const adapter = new McpClientAdapter({
    name: "edge",
    transport: "http",
    url: `${t.url}/mcp`,
    motebit: true,
    callerMotebitId: t.callerMotebitId,
    credentialSource: motebitCredentialSource({ privateKey: t.callerSeedHex }),
    serverVerifier: new ManifestPinningVerifier(),
  });
  await attempt("credentialSource connect", async () => {
    await adapter.connect();
    const id = adapter.verifiedIdentity;
    const pinned = adapter.serverConfig.motebitPublicKey;
    check("credentialSource connect, identity verified and pinned", id?.verified === true && id.motebit_id === t.motebitId && pinned === t.publicKeyHex,
      `verified ${String(id?.verified)}, motebit_id ${id?.motebit_id === t.motebitId ? "= the host's" : String(id?.motebit_id)}, pinned key ${pinned === t.publicKeyHex ? "= the host's" : String(pinned)}, manifest hash ${adapter.serverConfig.toolManifestHash ? "pinned" : "none"}`);
  });
  if (!adapter.isConnected) return;
  const names = adapter.getTools().map((d) => d.name);
  check("tools/list", ["edge__motebit_task", "edge__motebit_remember", "edge__echo"].every((n) => names.includes(n)), `${names.length} tools: ${names.slice(0, 8).join(", ")}`);
  await attempt("motebit_task", async () => {
    const r = await adapter.executeTool("edge__motebit_task", { prompt: "interop: count these words", required_capabilities: ["word_count"] });
    const receipts = adapter.getAndResetDelegationReceipts();
    const receipt = receipts[0] as unknown as Record<string, unknown> | undefined;
    const valid = receipt !== undefined && (await verifyExecutionReceipt(receipt, hexBytes(t.publicKeyHex)));
    check("motebit_task receipt captured, verifyExecutionReceipt", r.ok !== false && receipts.length === 1 && valid === true,
      `${receipts.length} receipt(s), status ${String(receipt?.status)}, verifyExecutionReceipt ${String(valid)}`);
    if (receipt === undefined) return;
    const dir = mkdtempSync(join(tmpdir(), "interop-receipt-"));
    try {
      const file = join(dir, "receipt.json");
      writeFileSync(file, JSON.stringify(receipt));
      const cli = spawnSync(process.execPath, [t.tsx, "--tsconfig", t.tsconfig, t.verifyCli, file, "--json"], { encoding: "utf8", timeout: 60_000 });
      check("motebit-verify CLI", cli.status === 0, `exit ${cli.status}: ${(cli.stdout || cli.stderr).replace(/\s+/g, " ").slice(0, 160)}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
  await attempt("motebit_remember", async () => {
    const r = await adapter.executeTool("edge__motebit_remember", { content: "interop: the reference client was here", sensitivity: "none" });
    check("motebit_remember", r.ok !== false && !/error|denied/i.test(text(r)), text(r).slice(0, 120));
  });
  await attempt("served tool", async () => {
    const r = await adapter.executeTool("edge__echo", { text: "interop" });
    check("served tool echo", answered(r, "interop"), text(r).slice(0, 120));
  });
  await adapter.disconnect();
}

async function perConnectionTokenRefused(): Promise<void> {
  const adapter = new McpClientAdapter({
    name: "edge",
    transport: "http",
    url: `${t.url}/mcp`,
    motebit: true,
    callerMotebitId: t.callerMotebitId,
    callerDeviceId: "interop-device",
    callerPrivateKey: hexBytes(t.callerSeedHex),
  });
  try {
    await adapter.connect();
    check("unmodified callerPrivateKey config refused with the hint", false, "connect() succeeded");
    await adapter.disconnect();
  } catch (e) {
    const message = (e as Error).message;
    check("unmodified callerPrivateKey config refused with the hint", /audience_mismatch/.test(message) && /credentialSource/.test(message), message.replace(/\s+/g, " ").slice(0, 240));
  }
}

async function staticToken(): Promise<void> {
  const adapter = new McpClientAdapter({ name: "edge", transport: "http", url: `${t.url}/mcp`, authToken: t.staticToken });
  await attempt("static-token config", async () => {
    await adapter.connect();
    const r = await adapter.executeTool("edge__echo", { text: "static" });
    check("static-token config (a named token)", answered(r, "static"), `${adapter.getTools().length} tools, echo ${text(r).slice(0, 80)}`);
    await adapter.disconnect();
  });
}

async function stdio(): Promise<void> {
  if (!t.stdio) return;
  const adapter = new McpClientAdapter({ name: "edge", transport: "stdio", command: t.stdio.command, args: t.stdio.args, motebit: true });
  await attempt("stdio", async () => {
    await adapter.connect();
    const id = adapter.verifiedIdentity;
    const r = await adapter.executeTool("edge__echo", { text: "stdio" });
    check("stdio (owner), identity verified", id?.verified === true && id.motebit_id === t.motebitId && answered(r, "stdio"), `verified ${String(id?.verified)}, ${adapter.getTools().length} tools, echo ${text(r).slice(0, 60)}`);
    await adapter.disconnect();
  });
}

await withCredentialSource();
await perConnectionTokenRefused();
await staticToken();
await stdio();
process.exit(failures === 0 ? 0 : 1);

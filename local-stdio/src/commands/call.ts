// `motebit-local call <url> <tool> [json args]`: a peer's one tool call, its result printed, its receipt verified.
import { signedFetch, stripIdentityTag, verifyReceipt } from "motebit-edge/core";
import { CliError } from "../cli-error.js";
import { EXIT_STATUS, flagString, parseFlags, UsageError } from "../flags.js";
import { callTool } from "../http-call.js";
import { readKeyFile } from "../keyfile.js";
import type { Command } from "./command.js";

const HELP = `Usage: motebit-local call URL TOOL [JSON_ARGS] (--key FILE | --token TOKEN)

Calls one tool of a motebit over HTTP as a peer: initialize, then tools/call, in one MCP session. Prints the
tool's result (the JSON-RPC result, one line) on stdout. When the result is a signed receipt (motebit_task),
it is verified and the verdict goes to stderr; a receipt that does not verify exits 1.

  URL            the MCP endpoint, e.g. http://127.0.0.1:8787/mcp
  TOOL           the tool's name, e.g. motebit_task or echo
  JSON_ARGS      the arguments as one JSON object (default {}), e.g. '{"prompt":"hello"}'

Options:
  --key FILE     sign a fresh token for every request with this key (64 hex chars, e.g. motebit.key); the
                 server must know the key (MOTEBIT_KNOWN_CALLERS, or its own key)
  --token T      send this bearer token as it is (the server's authToken)

${EXIT_STATUS}`;

export const SPEC = { key: "string", token: "string" } as const;

/** The receipt in a tool result: a text block whose JSON (identity tag stripped) is a signed receipt. */
function receiptIn(result: Record<string, unknown>): Record<string, unknown> | null {
  for (const block of (result.content as { type?: string; text?: string }[] | undefined) ?? []) {
    if (block.type !== "text" || typeof block.text !== "string") continue;
    try {
      const v = JSON.parse(stripIdentityTag(block.text)) as Record<string, unknown>;
      if (v !== null && typeof v === "object" && typeof v.signature === "string" && typeof v.task_id === "string") return v;
    } catch {
      /* plain text */
    }
  }
  return null;
}

export const command: Command = {
  summary: "call one tool of a motebit over HTTP as a peer, and verify its receipt",
  help: HELP,
  async run(argv) {
    const f = parseFlags(argv, SPEC, "call");
    const [rawUrl, tool, rawArgs, extra] = f.positionals;
    if (rawUrl === undefined || tool === undefined) throw new UsageError("needs URL and TOOL");
    if (extra !== undefined) throw new UsageError(`unexpected argument "${extra}" (the arguments are one JSON object)`);
    let url: URL;
    try {
      url = new URL(rawUrl);
    } catch {
      throw new UsageError(`URL must be an http(s) URL, got "${rawUrl}"`);
    }
    // A motebit's MCP endpoint is <server>/mcp (a fleet motebit's <server>/m/<name>/mcp); anything else answers 404.
    if (!/\/mcp\/?$/.test(url.pathname)) {
      const meant = new URL(/^\/m\/[^/]+\/?$/.test(url.pathname) ? url.pathname.replace(/\/?$/, "/mcp") : "/mcp", url);
      throw new CliError(`${url.href} is not a motebit's MCP endpoint, which ends in /mcp: did you mean ${meant.href}?`);
    }
    let args: Record<string, unknown> = {};
    if (rawArgs !== undefined) {
      try {
        args = JSON.parse(rawArgs) as Record<string, unknown>;
      } catch (e) {
        throw new UsageError(`JSON_ARGS is not JSON: ${(e as Error).message}`);
      }
      if (args === null || typeof args !== "object" || Array.isArray(args)) throw new UsageError("JSON_ARGS must be a JSON object");
    }
    const keyPath = flagString(f, "key");
    const token = flagString(f, "token");
    if ((keyPath === undefined) === (token === undefined)) throw new UsageError("give one of --key FILE or --token TOKEN");
    let fetchFn: (input: string | URL, init?: RequestInit) => Promise<Response>;
    if (token !== undefined) {
      fetchFn = (input, init) => {
        const headers = new Headers(init?.headers);
        headers.set("authorization", `Bearer ${token}`);
        return fetch(input, { ...init, headers });
      };
    } else {
      const { seedHex, warnings } = readKeyFile(keyPath!);
      for (const w of warnings) process.stderr.write(`motebit-local call: ${w}\n`);
      // The token's sub is the server's motebit_id, which its public /health says.
      const health = new URL("/health", url);
      let target: unknown;
      try {
        target = ((await (await fetch(health)).json()) as { motebit_id?: unknown }).motebit_id;
      } catch (e) {
        throw new CliError(`cannot read the server's motebit_id from ${health.href}: ${(e as { cause?: { code?: string } }).cause?.code ?? (e as Error).message}`);
      }
      if (typeof target !== "string") throw new CliError(`${health.href} names no motebit_id`);
      fetchFn = signedFetch({ privateKey: seedHex, target, deviceId: "motebit-local-call" });
    }
    const result = await callTool({ url, fetch: fetchFn, tool, args });
    process.stdout.write(JSON.stringify(result) + "\n");
    const receipt = receiptIn(result);
    if (receipt !== null) {
      const verdict = await verifyReceipt(receipt);
      if (!verdict.valid) {
        process.stderr.write(`motebit-local call: the receipt does NOT verify: ${verdict.errors.join("; ")}\n`);
        return 1;
      }
      process.stderr.write(`motebit-local call: receipt verified: task ${String(receipt.task_id)}, status ${String(receipt.status)}, signed by motebit ${String(receipt.motebit_id)}\n`);
    }
    return result.isError === true ? 1 : 0;
  },
};

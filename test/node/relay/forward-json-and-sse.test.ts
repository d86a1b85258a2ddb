// The relay's forwarding (examples/relay/forward.ts) exactly as docs/protocol.md §9 describes it, against the real HTTP host:
// health wake, initialize (2025-03-26, relay-forward), notifications/initialized, tools/call motebit_task with a
// fresh relay-signed mcp:call token each; the answer is read as JSON or as SSE, the identity tag stripped.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { forwardTask } from "../../../examples/relay/forward.js";
import { serveHttp, type HttpHost } from "../../../local-stdio/src/serve/http-host.js";
import { createSigner, sovereignMotebitId, type Signer } from "../../../src/protocol/index.js";
import { systemClock } from "../../../src/ports.js";
import { defaultConfig, localSettings } from "../../../local-stdio/src/config-file.js";
import { createHostMotebit } from "../../../src/host/host-motebit.js";
import { ToolRegistry } from "../../../src/tools/registry.js";
import exampleTools from "../../../examples/tools/index.js";
import keys from "../../fixtures/edge/keys.json";
import { memorySql } from "../helpers/sqlite.js";

let host: HttpHost;
let relay: Signer;
let relayId: string;
const seen: { method: string; accept: string | null; auth: string | null; body: string; answeredAs?: string | null }[] = [];

beforeAll(async () => {
  relay = await createSigner(keys.relay.seed_hex);
  relayId = await sovereignMotebitId(relay.publicKeyHex);
  const config = localSettings(defaultConfig(), {}, false).server;
  config.relayTrust = relay.publicKeyHex;
  config.relayId = relayId;
  const sql = memorySql();
  const motebit = await createHostMotebit({
    sql,
    clock: systemClock,
    secrets: { privateKeyHex: keys.server.seed_hex, identityFileText: null },
    config,
    tools: ToolRegistry.fromModule(exampleTools),
  });
  host = await serveHttp({ motebit, sql, clock: systemClock, config, host: "127.0.0.1", port: 0 });
});

afterAll(() => host?.close());

/** fetch that records what the relay sent, and asks for SSE only when `sse`. */
const recordingFetch = (sse: boolean): typeof fetch => async (input, init) => {
  const headers = new Headers(init?.headers);
  if (sse && init?.method === "POST") headers.set("Accept", "text/event-stream, application/json;q=0.1");
  const entry: (typeof seen)[number] = { method: init?.method ?? "GET", accept: headers.get("Accept"), auth: headers.get("Authorization"), body: String(init?.body ?? "") };
  seen.push(entry);
  const res = await fetch(input, { ...init, headers });
  entry.answeredAs = res.headers.get("content-type");
  return res;
};

describe("forwarding a task to a registered endpoint", () => {
  for (const sse of [false, true]) {
    it(`reads the receipt from a ${sse ? "SSE" : "JSON"} answer, bound to the relay's task id`, async () => {
      seen.length = 0;
      const taskId = `task-${sse ? "sse" : "json"}`;
      const out = await forwardTask({ endpointUrl: host.url, motebitId: keys.server.sovereign_motebit_id }, { taskId, prompt: "hi" }, {
        auth: { kind: "signed", signer: relay, relayId, deviceId: "relay-device" },
        fetch: recordingFetch(sse),
      });
      expect(out).toMatchObject({ kind: "receipt", receipt: { relay_task_id: taskId, status: "completed", public_key: keys.server.public_key_hex } });
      expect(seen.map((s) => s.method)).toEqual(["GET", "POST", "POST", "POST"]);
      expect(JSON.parse(seen[1].body)).toMatchObject({ method: "initialize", params: { protocolVersion: "2025-03-26", clientInfo: { name: "relay-forward" } } });
      expect(JSON.parse(seen[2].body)).toEqual({ jsonrpc: "2.0", method: "notifications/initialized" });
      expect(JSON.parse(seen[3].body)).toMatchObject({ method: "tools/call", params: { name: "motebit_task", arguments: { prompt: "hi", relay_task_id: taskId } } });
      expect(seen[3].answeredAs).toMatch(sse ? /^text\/event-stream/ : /^application\/json/);
      const tokens = seen.slice(1).map((s) => s.auth);
      expect(new Set(tokens).size).toBe(3);
      for (const a of tokens) expect(a).toMatch(/^Bearer motebit:/);
    });
  }

  it("an endpoint that does not know the relay's key is reported as refusing it, not as a receipt", async () => {
    const stranger = await createSigner(keys.stranger.seed_hex);
    const out = await forwardTask({ endpointUrl: host.url, motebitId: keys.server.sovereign_motebit_id }, { taskId: "t", prompt: "hi" }, { auth: { kind: "signed", signer: stranger, relayId, deviceId: "d" } });
    expect(out).toMatchObject({ kind: "unreachable", reason: expect.stringMatching(/^endpoint_refused: initialize answered 401 .*no_key_for_caller/) });
  });
});

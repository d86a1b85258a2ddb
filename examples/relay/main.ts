// The local relay as a program: `npm run relay` (= `tsx examples/relay/main.ts`), see HELP below.
// Listens on 127.0.0.1 only. Its key is kept in --key-file (default .motebit-relay.key, created 0600 on first
// start) so a motebit that pinned it keeps trusting it across restarts. Writes the settings a motebit needs to
// trust it into --env-out, a dotenv file for `npm start -- --env-file` or `env $(cat …) motebit-local serve`.
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { parseArgs } from "node:util";
import { serve } from "@hono/node-server";
import { createSigner, generateSeedHex, sovereignMotebitId } from "../../src/protocol/index.js";
import { createLocalRelay } from "./relay-app.js";

const HELP = `Usage: npm run relay -- [--port 3200] [--key-file .motebit-relay.key] [--env-out .motebit-relay.env] [--api-token T] [--sign-forwards]

A local motebit relay for trying the relay loop offline (in memory; not for production).
  --port N        where to listen on 127.0.0.1 (default 3200; 0 picks a free port)
  --key-file F    the relay's Ed25519 seed (64 hex); created on first start (default .motebit-relay.key)
  --env-out F     where to write MOTEBIT_SYNC_URL, MOTEBIT_RELAY_TRUST and MOTEBIT_RELAY_ID for a motebit
                  (default .motebit-relay.env)
  --api-token T   the relay's API token: accepted from agents instead of a signed token, and sent as
                  "Authorization: Bearer T" when forwarding a task, like the reference relay
                  (written to --env-out as MOTEBIT_RELAY_FORWARD_TOKEN)
  --sign-forwards forward with relay-signed mcp:call tokens instead (the product document's newer relay)`;

function main(): void {
  let values;
  try {
    ({ values } = parseArgs({
      options: { port: { type: "string" }, "key-file": { type: "string" }, "env-out": { type: "string" }, "api-token": { type: "string" }, "sign-forwards": { type: "boolean" }, help: { type: "boolean" } },
      strict: true,
    }));
  } catch (e) {
    process.stderr.write(`relay: ${(e as Error).message}\n\n${HELP}\n`);
    process.exit(2);
  }
  if (values.help) {
    process.stdout.write(HELP + "\n");
    return;
  }
  const port = Number(values.port ?? 3200);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    process.stderr.write(`relay: --port must be 0-65535, got ${values.port}\n`);
    process.exit(2);
  }
  void start(port, values["key-file"] ?? ".motebit-relay.key", values["env-out"] ?? ".motebit-relay.env", values["api-token"] ?? null, values["sign-forwards"] === true);
}

async function start(port: number, keyFile: string, envOut: string, apiToken: string | null, signForwards: boolean): Promise<void> {
  if (!existsSync(keyFile)) writeFileSync(keyFile, generateSeedHex() + "\n", { mode: 0o600 });
  let signer;
  try {
    signer = await createSigner(readFileSync(keyFile, "utf8").trim());
  } catch (e) {
    process.stderr.write(`relay: ${keyFile} does not hold a 64-hex Ed25519 seed: ${(e as Error).message}\n`);
    process.exit(1);
  }
  const relayId = await sovereignMotebitId(signer.publicKeyHex);
  const log = (line: string) => process.stderr.write(line + "\n");
  const relay = createLocalRelay({ signer, relayId, apiToken, forwardAuth: signForwards ? "signed" : "api_token", log });
  const server = serve({ fetch: relay.app.fetch, port, hostname: "127.0.0.1" }, () => {
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const forward = apiToken !== null && !signForwards ? `MOTEBIT_RELAY_FORWARD_TOKEN=${apiToken}\n` : "";
    const env = `MOTEBIT_SYNC_URL=${url}\nMOTEBIT_RELAY_TRUST=${signer.publicKeyHex}\nMOTEBIT_RELAY_ID=${relayId}\n${forward}`;
    writeFileSync(envOut, env);
    log(`relay listening at ${url} (relay id ${relayId})`);
    log(`a motebit trusts it with these settings (written to ${envOut}):`);
    log(env.trimEnd().replace(/^/gm, "  "));
  });
  server.once("error", (e) => {
    log(`relay: cannot listen on 127.0.0.1:${port}: ${(e as NodeJS.ErrnoException).code ?? e.message}`);
    process.exit(1);
  });
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => server.close(() => process.exit(0)));
}

main();

// The local relay (examples/relay) served on a free 127.0.0.1 port inside the test process, plus polling helpers.
import type { AddressInfo } from "node:net";
import { serve, type ServerType } from "@hono/node-server";
import { createLocalRelay, type LocalRelay, type LocalRelayOptions } from "../../../../examples/relay/relay-app.js";
import { createSigner, sovereignMotebitId, type Signer } from "../../../../src/protocol/index.js";
import keys from "../../../fixtures/edge/keys.json";

export interface TestRelay {
  url: string;
  relay: LocalRelay;
  signer: Signer;
  /** What the relay logged. */
  log: string[];
  /** Env for a motebit that should trust this relay (its key, and the bearer it forwards with when it has an API token). */
  trustEnv: Record<string, string>;
  /** Events of one kind for one motebit. */
  count(kind: string, motebitId: string): number;
  stop(): Promise<void>;
}

export async function startTestRelay(o: Partial<Pick<LocalRelayOptions, "apiToken" | "fault" | "forwardAuth">> = {}): Promise<TestRelay> {
  const signer = await createSigner(keys.relay.seed_hex);
  const relayId = await sovereignMotebitId(signer.publicKeyHex);
  const log: string[] = [];
  const relay = createLocalRelay({ signer, relayId, apiToken: o.apiToken ?? null, forwardAuth: o.forwardAuth, fault: o.fault, log: (l) => log.push(l) });
  const server = await new Promise<ServerType>((resolve) => {
    const s = serve({ fetch: relay.app.fetch, port: 0, hostname: "127.0.0.1" }, () => resolve(s));
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    relay,
    signer,
    log,
    trustEnv: {
      MOTEBIT_SYNC_URL: url,
      MOTEBIT_RELAY_TRUST: signer.publicKeyHex,
      MOTEBIT_RELAY_ID: relayId,
      ...(o.apiToken ? { MOTEBIT_RELAY_FORWARD_TOKEN: o.apiToken } : {}),
    },
    count: (kind, id) => relay.events.filter((e) => e.kind === kind && e.motebit_id === id).length,
    stop: async () => {
      await relay.idle();
      await new Promise<void>((done) => {
        if ("closeAllConnections" in server) server.closeAllConnections();
        server.close(() => done());
      });
    },
  };
}


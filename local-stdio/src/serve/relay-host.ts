// motebit-local's side of the relay loop: a timer that drives src/relay's loop while serving over HTTP, and a
// deregistration on SIGTERM/SIGINT within 2 s. stdio never registers.
import {
  memoryRelayStore, type Motebit, relayLoopFor, type RelaySettings, resolveEndpoint, selfTestLine, skippedSelfTest,
  systemClock,
} from "motebit-edge/core";

/** Deregistration gets this long, so a stop finishes within the 2 s a supervisor expects. */
const DEREGISTER_BUDGET_MS = 1_500;

export interface RelayHost {
  /** Stops the timer and deregisters (at most DEREGISTER_BUDGET_MS). */
  stop(): Promise<void>;
}

export function startRelayHost(o: {
  motebit: Motebit;
  settings: RelaySettings;
  transport: "stdio" | "http";
  selfTest: boolean;
  bind: string;
  port: number;
  log: (line: string) => void;
}): RelayHost | null {
  const selfTest = o.selfTest || o.settings.selfTest;
  if (o.transport === "stdio" || o.settings.syncUrl === null) {
    if (selfTest) o.log(selfTestLine(skippedSelfTest(o.transport === "stdio" ? "stdio" : "no_relay")));
    return null;
  }
  const endpoint = resolveEndpoint(o.settings.publicUrl, { kind: "local", bind: o.bind, port: o.port });
  if (endpoint.url !== null && endpoint.warning !== null) o.log(`motebit: relay: ${endpoint.warning}`);
  const loop = relayLoopFor({
    motebit: o.motebit,
    settings: o.settings,
    syncUrl: o.settings.syncUrl,
    endpoint,
    fetch: (input, init) => fetch(input, init),
    clock: systemClock,
    store: memoryRelayStore(),
    log: o.log,
    selfTest,
  });
  o.motebit.relayStatus = () => loop.status();
  o.motebit.relayTaskLookup = loop.lookupTask;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let stopped = false;
  const run = async () => {
    timer = null;
    const next = await loop.tick();
    if (!stopped && next !== null) timer = setTimeout(run, Math.max(0, next - systemClock.now()));
  };
  void run();
  return {
    async stop() {
      stopped = true;
      if (timer !== null) clearTimeout(timer);
      await loop.stop(DEREGISTER_BUDGET_MS);
    },
  };
}

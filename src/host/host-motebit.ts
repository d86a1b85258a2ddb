// How a host brings its motebit up: the key and ids (loadHostIdentity), the motebit over the host's SQL, and the
// dispatch-token check under the same keys the HTTP auth trusts. The Durable Object and motebit-local both use it.
import { Motebit, type MotebitOptions } from "../motebit.js";
import type { Clock, SqlPort } from "../ports.js";
import type { SignerFactory } from "../protocol/index.js";
import type { IdentitySecrets, ServerConfig } from "../settings/server-config.js";
import { callerStanding, currentStanding, type StandingSettings } from "./caller-standing.js";
import { dispatchTokenVerifier } from "./dispatch-token.js";
import { loadHostIdentity } from "./identity.js";
import { OAuthStore } from "../oauth/store.js";
import { withOAuthStanding } from "../oauth/standing.js";

export type HostMotebitOptions = Pick<MotebitOptions, "tools" | "llm" | "taskTimeoutMs" | "log" | "telemetry"> & {
  sql: SqlPort;
  clock: Clock;
  secrets: IdentitySecrets;
  /** Whose tokens are trusted: the same settings that authenticate HTTP callers. */
  config: Pick<ServerConfig, "staticTokens" | "knownCallers" | "relayTrust" | "relayId"> & StandingSettings;
  /** The memory backends, once the motebit_id (a Vectorize namespace) is known. Default: embedded. */
  memoryFor?: (motebitId: string) => Pick<MotebitOptions, "embedder" | "index">;
  /** A host whose settings change in place: stored callers' standing is read from these, when asked. Default: config. */
  currentSettings?: () => StandingSettings | null;
  /** How the seed becomes the motebit's signer. Default: WebCrypto (createSigner). */
  signerFor?: SignerFactory;
};

/** Throws StartupError (bad key or identity file) or the tools registry's error, each with a message saying what to fix. */
export async function createHostMotebit(o: HostMotebitOptions): Promise<Motebit> {
  const id = await loadHostIdentity(o.sql, o.secrets, o.signerFor);
  const self = { motebitId: id.motebitId, publicKeyHex: id.signer.publicKeyHex };
  return Motebit.create({
    sql: o.sql,
    clock: o.clock,
    signer: id.signer,
    motebitId: id.motebitId,
    deviceId: id.deviceId,
    identityFileText: id.identityFileText,
    tools: o.tools,
    ...o.memoryFor?.(id.motebitId),
    llm: o.llm,
    taskTimeoutMs: o.taskTimeoutMs,
    verifyDispatchToken: dispatchTokenVerifier({ sql: o.sql, clock: o.clock, settings: o.config, identity: self }),
    callerStanding: withOAuthStanding(o.currentSettings ? currentStanding(o.currentSettings) : callerStanding(o.config), oauthGrants(o.sql)),
    log: o.log,
    telemetry: o.telemetry,
  });
}

function oauthGrants(sql: SqlPort): OAuthStore {
  const store = new OAuthStore(sql);
  store.migrate();
  return store;
}

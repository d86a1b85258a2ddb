// Builds the owner's motebit on this machine: identity and key, tools, model, and its state in
// <dataDir>/motebit.sqlite (the same memories and receipt ledger as at the edge, over the same SQL port).
import { mkdirSync } from "node:fs";
import { createHostMotebit, type Embedder, type LlmProvider, type Motebit, type ServerConfig, systemClock, type TelemetryPort } from "motebit-edge/core";
import { CliError } from "./cli-error.js";
import type { LocalConfig } from "./config-file.js";
import { loadLocalIdentity } from "./local-identity.js";
import { nodeSigner } from "./serve/node-sign.js";
import { databasePath } from "./locations.js";
import { openSqlite, type LocalSql } from "./sqlite-port.js";
import { loadToolsModule } from "./tools-module.js";

export interface LocalMotebit {
  motebit: Motebit;
  sql: LocalSql;
  dataDir: string;
  /** What runs tasks and queries: the model id, or null for direct mode. */
  llm: LlmProvider | null;
}

export async function startLocalMotebit(o: {
  identityPath: string | null;
  toolsPath: string | null;
  dataDir: string;
  config: LocalConfig;
  /** The HTTP callers' settings (config-file.ts localSettings). */
  server: ServerConfig;
  llm: LlmProvider | null;
  /** Default: the offline hashing embedder. */
  embedder?: Embedder;
  taskTimeoutMs?: number | null;
  /** OpenTelemetry, when configured (telemetry/start-telemetry.ts). */
  telemetry?: TelemetryPort | null;
  log: (line: string) => void;
}): Promise<LocalMotebit> {
  // Everything that can be wrong with the inputs is found before anything is written.
  const identity = o.identityPath === null ? null : await loadLocalIdentity({ ...keyOpts(o), identityPath: o.identityPath });
  const tools = o.toolsPath === null ? undefined : await loadToolsModule(o.toolsPath);
  try {
    mkdirSync(o.dataDir, { recursive: true, mode: 0o700 });
  } catch (e) {
    throw new CliError(`cannot create data dir ${o.dataDir}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  const { seedHex, identityFileText } = identity ?? (await loadLocalIdentity({ ...keyOpts(o), identityPath: null }));

  let sql: LocalSql;
  try {
    sql = openSqlite(databasePath(o.dataDir), { durability: o.config.durability });
  } catch (e) {
    throw new CliError(`cannot open ${databasePath(o.dataDir)}: ${(e as Error).message}`);
  }
  try {
    const motebit = await createHostMotebit({
      sql,
      clock: systemClock,
      secrets: { privateKeyHex: seedHex, identityFileText },
      config: o.server,
      tools,
      llm: o.llm,
      taskTimeoutMs: o.taskTimeoutMs,
      telemetry: o.telemetry,
      memoryFor: () => ({ embedder: o.embedder }),
      signerFor: nodeSigner,
      log: o.log,
    });
    // A new embedder (or dimension) re-embeds every stored memory before the first recall; each page is
    // committed as it goes, so an interrupted start resumes where it stopped.
    await motebit.memory.repairIndex({
      onProgress: (done, total) => o.log(`motebit: re-embedding memories with ${motebit.memory.embedder.id}: ${done}/${total}`),
    });
    return { motebit, sql, dataDir: o.dataDir, llm: o.llm };
  } catch (e) {
    sql.close();
    throw e instanceof CliError ? e : new CliError((e as Error).message);
  }
}

function keyOpts(o: { config: LocalConfig; dataDir: string; log: (line: string) => void }) {
  return { privateKeyPath: o.config.privateKeyPath, dataDir: o.dataDir, warn: o.log, note: o.log };
}

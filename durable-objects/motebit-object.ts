// One SQLite-backed Durable Object per motebit: its key and identity, the jti replay set, MCP sessions,
// rate-limit buckets, memory and receipts — everything that must be serialised. The Worker authenticates
// and calls it over RPC with the caller's principal as plain data.
import { DurableObject } from "cloudflare:workers";
// "motebit-tools" is an alias (wrangler.toml [alias]): the deployment's tools module, the examples by default.
// Its default export is the tool array; it may also export `resources` and `prompts`.
import * as toolsModule from "motebit-tools";
import { systemClock } from "../src/ports.js";
import { inProcessBackend, type ServerBackend } from "../src/server/backend.js";
import { readIdentitySecrets, readServerConfig } from "../src/server/config.js";
import { createHostMotebit } from "../src/server/host-motebit.js";
import type { McpCall } from "../src/server/mcp-request.js";
import { startupFailureResponse } from "../src/server/responses.js";
import { ToolRegistry } from "../src/tools/registry.js";
import type { EdgeEnv } from "../worker/env.js";
import { durableSqlPort } from "./sql-port.js";
import { edgeAiSettings, edgeMemory } from "./edge-ai.js";
import { taskTimeoutFor } from "../src/server/ai-config.js";
import { DEFAULT_TASK_TIMEOUT_MS } from "../src/motebit.js";

export type IdentityAnswer = { ok: true; motebitId: string; publicKeyHex: string } | { ok: false; error: string };

type Started = { ok: true; backend: ServerBackend } | { ok: false; error: string };

export class MotebitObject extends DurableObject<EdgeEnv> {
  private readonly started: Promise<Started>;

  constructor(ctx: DurableObjectState, env: EdgeEnv) {
    super(ctx, env);
    // No request runs before start-up has finished (or failed: a failure is an answer, never a crash loop).
    this.started = ctx.blockConcurrencyWhile(() => this.start());
  }

  private async start(): Promise<Started> {
    try {
      const sql = durableSqlPort(this.ctx.storage);
      const config = readServerConfig(this.env as unknown as Record<string, unknown>);
      const ai = edgeAiSettings(this.env);
      const llm = ai.mode === "ai" ? (await import("./edge-llm.js")).edgeLlm(this.env, ai) : null;
      const motebit = await createHostMotebit({
        sql,
        clock: systemClock,
        secrets: readIdentitySecrets(this.env as unknown as Record<string, unknown>),
        config,
        tools: ToolRegistry.fromModule(toolsModule.default, toolsModule as { resources?: unknown; prompts?: unknown }),
        memoryFor: (motebitId) => edgeMemory(this.env, ai, motebitId),
        llm,
        taskTimeoutMs: taskTimeoutFor(ai, DEFAULT_TASK_TIMEOUT_MS),
        log: (line) => console.log(line),
      });
      console.log(`motebit ${motebit.motebitId} started; mode: ${ai.mode}${llm ? `; provider: ${llm.provider}; model: ${llm.modelName}` : ""}; embedder: ${motebit.memory.embedder.id}`);
      return { ok: true, backend: inProcessBackend({ config, sql, clock: systemClock, motebit }) };
    } catch (e) {
      const error = (e as Error)?.message ?? String(e);
      console.error(`motebit cannot start: ${error}`);
      return { ok: false, error };
    }
  }

  async identity(): Promise<IdentityAnswer> {
    const s = await this.started;
    if (!s.ok) return s;
    const { motebitId, publicKeyHex } = await s.backend.identity();
    return { ok: true, motebitId, publicKeyHex };
  }

  async handleMcp(call: McpCall): Promise<Response> {
    const s = await this.started;
    return s.ok ? s.backend.handleMcp(call) : startupFailureResponse(s.error);
  }
}

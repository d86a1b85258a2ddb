import type { MotebitContext } from "./motebit-context.js";
import type { CallContext, CallInput } from "./call-context.js";
import type { JsonRpcResponse, PostedMessage } from "./jsonrpc.js";
import { INTERNAL_ERROR, INVALID_PARAMS, METHOD_NOT_FOUND, rpcError, rpcResult, RpcError } from "./jsonrpc.js";
import { negotiateProtocolVersion } from "./protocol-versions.js";
import { toolsList } from "./catalog.js";
import { CallerViewWithCatalog } from "./caller-view.js";
import { callTool } from "./call-tool.js";
import { completeResourceVariable, listResources, listResourceTemplates, readResource, resourceExists } from "./resources.js";
import { completePromptArgument, getPrompt, listPrompts } from "./prompts.js";
import { isLogLevel, LOG_LEVELS } from "../tools/log-level.js";
import { isOwner, principalLabel } from "../principal.js";
import { clientMessageProblem } from "./param-schemas.js";
import { SERVER_CAPABILITIES, SERVER_INFO, serverInstructions } from "./server-info.js";
import { STATELESS_PROTOCOL_VERSIONS } from "./stateless/revision.js";
import { TASKS_EXTENSION } from "./stateless/tasks-extension.js";
import { retryOf } from "./stateless/input-required.js";
import { echo } from "../bounded/echo.js";
import { admitMethod } from "../policy/admission/admit.js";
import { insufficientScopeError } from "./insufficient-scope.js";

type Handler = (m: MotebitContext, c: CallContext, params: Record<string, unknown>, v: CallerViewWithCatalog) => Promise<unknown>;

/** The resource whose change a subscriber hears about: the owner's view of it moves with every call. */
const STATE_URI = "motebit://state";

const METHODS: Record<string, Handler> = {
  async initialize(m, c, params) {
    const caps = params.capabilities;
    c.session.clientCapabilities = typeof caps === "object" && caps !== null && !Array.isArray(caps) ? (caps as Record<string, unknown>) : {};
    return {
      protocolVersion: negotiateProtocolVersion(params.protocolVersion),
      // Only the owner's tools change while serving (connected MCP servers come and go); a peer's never do.
      capabilities: { ...SERVER_CAPABILITIES, tools: { listChanged: c.principal.kind === "owner" } },
      serverInfo: SERVER_INFO,
      instructions: serverInstructions(m.motebitId, m.did),
    };
  },
  // 2026-07-28's answer to "who are you": no session opens. Sessions learnt it at initialize.
  async "server/discover"(m, c) {
    if (c.call.statelessVersion === null) throw new RpcError(METHOD_NOT_FOUND, "Method not found: server/discover (a 2026-07-28 method)");
    // No resources/subscribe without a session (2026-07-28 moved it to subscriptions/listen, not served here).
    const { subscribe: _none, ...resources } = SERVER_CAPABILITIES.resources;
    return {
      supportedVersions: [...STATELESS_PROTOCOL_VERSIONS],
      capabilities: { ...SERVER_CAPABILITIES, resources, extensions: { [TASKS_EXTENSION]: {} } },
      serverInfo: SERVER_INFO,
      instructions: serverInstructions(m.motebitId, m.did),
    };
  },
  async ping() {
    return {};
  },
  async "logging/setLevel"(_m, c, params) {
    if (!isLogLevel(params.level)) throw new RpcError(INVALID_PARAMS, `level must be one of ${LOG_LEVELS.join(", ")}`);
    c.session.logLevel = params.level;
    return {};
  },
  async "tools/list"(_m, _c, _params, v) {
    return { tools: toolsList(v.listed(), (e) => v.verdict(e)) };
  },
  async "tools/call"(m, c, params, v) {
    // 2026-07-28 asks the client through input-required results: the retry carries the answers and our signed state.
    const result = await callTool(m, c, v, params.name, params.arguments, retryOf(c, params));
    if (isOwner(c.principal) && c.session.subscriptions.has(STATE_URI)) c.channel.notify("notifications/resources/updated", { uri: STATE_URI });
    return result;
  },
  async "resources/list"(m, c) {
    return { resources: listResources(m, c.principal) };
  },
  async "resources/templates/list"(m, c) {
    return { resourceTemplates: listResourceTemplates(m, c.principal) };
  },
  async "resources/read"(m, c, params) {
    return readResource(m, c.principal, params.uri);
  },
  async "resources/subscribe"(m, c, params) {
    if (typeof params.uri !== "string" || !resourceExists(m, c.principal, params.uri)) {
      throw new RpcError(INVALID_PARAMS, `Cannot subscribe: no resource ${echo(params.uri)} for this caller`);
    }
    c.session.subscriptions.add(params.uri);
    return {};
  },
  async "resources/unsubscribe"(_m, c, params) {
    if (typeof params.uri !== "string") throw new RpcError(INVALID_PARAMS, "resources/unsubscribe needs a string 'uri'");
    c.session.subscriptions.delete(params.uri);
    return {};
  },
  async "prompts/list"(m, c) {
    return { prompts: listPrompts(m, c.principal) };
  },
  async "prompts/get"(m, c, params) {
    return getPrompt(m, c, params.name, params.arguments, retryOf(c, params));
  },
  async "completion/complete"(m, c, params) {
    const ref = params.ref as { type?: unknown; name?: unknown; uri?: unknown } | undefined;
    const arg = params.argument as { name?: unknown; value?: unknown } | undefined;
    if (typeof arg?.name !== "string" || typeof arg.value !== "string") throw new RpcError(INVALID_PARAMS, "completion/complete needs argument.name and argument.value");
    let values: string[];
    if (ref?.type === "ref/prompt" && typeof ref.name === "string") values = await completePromptArgument(m, c.principal, ref.name, arg.name, arg.value);
    else if (ref?.type === "ref/resource" && typeof ref.uri === "string") values = await completeResourceVariable(m, c.principal, ref.uri, arg.name, arg.value);
    else throw new RpcError(INVALID_PARAMS, 'completion/complete needs ref {type: "ref/prompt", name} or {type: "ref/resource", uri}');
    return { completion: { values, total: values.length, hasMore: false } };
  },
};

/** Checks the types of what the client sent; a refusal is audited like any other (the host answers it). */
function refuseBadParams(m: MotebitContext, c: CallInput, message: unknown): RpcError | null {
  const bad = clientMessageProblem(message);
  if (bad === null) return null;
  const args = bad.method === "response" ? message : ((message as { params?: unknown }).params ?? {});
  m.audit.record({ tool: `rpc:${bad.method}`, caller: principalLabel(c.principal), args, outcome: "invalid", at: m.clock.now() });
  return bad.error;
}

/** A request's _meta.progressToken, when it carries a usable one. */
function progressTokenOf(params: Record<string, unknown> | undefined): string | number | undefined {
  const meta = params?._meta as { progressToken?: unknown } | undefined;
  const t = meta?.progressToken;
  return typeof t === "string" || (typeof t === "number" && Number.isFinite(t)) ? t : undefined;
}

/**
 * One JSON-RPC message its host has classified (src/mcp/engine/classify.ts, the one way every host does) in, at most
 * one response out (null for notifications and client responses). Transport concerns — framing, sessions, auth,
 * cancellation, routing client responses — belong to the host.
 */
export async function dispatchClassified(m: MotebitContext, c: CallInput, msg: PostedMessage): Promise<JsonRpcResponse | null> {
  if (msg.kind !== "request") {
    // Nothing to answer, but a wrong-typed field is still refused on the record.
    refuseBadParams(m, c, msg.message);
    return null;
  }
  const bad = refuseBadParams(m, c, msg.message);
  if (bad !== null) return rpcError(msg.message.id, bad.code, bad.message);
  const { id, method, params } = msg.message;
  const handler = Object.hasOwn(METHODS, method) ? METHODS[method] : undefined;
  if (!handler) return rpcError(id, METHOD_NOT_FOUND, `Method not found: ${echo(method)}`);
  const outsideGrant = admitMethod(c.principal, method);
  if (outsideGrant !== null) {
    m.audit.record({ tool: `rpc:${method}`, caller: principalLabel(c.principal), args: params ?? {}, outcome: "denied", at: m.clock.now() });
    const e = insufficientScopeError(outsideGrant, c.principal);
    return rpcError(id, e.code, e.message, e.data);
  }
  try {
    const progressToken = progressTokenOf(params);
    // The caller's view, once for this message: every handler and tool below reads it.
    const view = new CallerViewWithCatalog(m, c.principal, c.session, c.call);
    const call: CallContext = { ...c, view, ...(progressToken !== undefined && { progressToken }) };
    return rpcResult(id, await handler(m, call, params ?? {}, view));
  } catch (e) {
    if (e instanceof RpcError) return rpcError(id, e.code, e.message, e.data);
    m.log(`internal error in ${echo(method)}: ${(e as Error)?.stack ?? String(e)}`);
    return rpcError(id, INTERNAL_ERROR, "Internal error");
  }
}

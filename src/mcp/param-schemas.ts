// The types of every field a client controls that we read, checked before anything reads it: a value of the wrong
// type (a `{"toString":1}` where a string belongs) is refused as -32602 naming the field, never reaches String().
// Written from MCP's schema (2025-11-25 and 2026-07-28) for the params this server reads; types only — what a
// value means (an unknown tool, a level name) stays with the handler and its own errors.
import { compileSchema, type CompiledSchema } from "../tools/json-schema.js";
import { INVALID_PARAMS, RpcError, type JsonRpcId } from "./jsonrpc.js";

const STRING = { type: "string" };
const OBJECT = { type: "object" };
const REQUEST_ID = { type: ["string", "integer"] };
/** Prompt arguments and completion context: names to string values. */
const STRING_MAP = { type: "object", additionalProperties: STRING };
const META = { type: "object", properties: { progressToken: REQUEST_ID } };

function params(properties: Record<string, unknown>, required: string[] = []): Record<string, unknown> {
  return { type: "object", properties: { _meta: META, ...properties }, required };
}

const TASK_ID = params({ taskId: STRING }, ["taskId"]);
const PAGED = params({ cursor: STRING });

/** By method: requests and notifications a client sends us. Methods not listed read no params. */
const PARAMS: Record<string, Record<string, unknown>> = {
  initialize: params({ protocolVersion: STRING, capabilities: OBJECT, clientInfo: { type: "object", properties: { name: STRING, version: STRING } } }),
  "logging/setLevel": params({ level: STRING }, ["level"]),
  "tools/list": PAGED,
  "tools/call": params({ name: STRING, arguments: OBJECT, task: OBJECT, inputResponses: OBJECT, requestState: STRING }, ["name"]),
  "resources/list": PAGED,
  "resources/templates/list": PAGED,
  "resources/read": params({ uri: STRING }, ["uri"]),
  "resources/subscribe": params({ uri: STRING }, ["uri"]),
  "resources/unsubscribe": params({ uri: STRING }, ["uri"]),
  "prompts/list": PAGED,
  "prompts/get": params({ name: STRING, arguments: STRING_MAP, inputResponses: OBJECT, requestState: STRING }, ["name"]),
  "completion/complete": params(
    {
      ref: { type: "object", properties: { type: STRING, name: STRING, uri: STRING }, required: ["type"] },
      argument: { type: "object", properties: { name: STRING, value: STRING }, required: ["name", "value"] },
      context: { type: "object", properties: { arguments: STRING_MAP } },
    },
    ["ref", "argument"],
  ),
  "tasks/get": TASK_ID,
  "tasks/cancel": TASK_ID,
  "tasks/update": params({ taskId: STRING, inputResponses: OBJECT }, ["taskId"]),
  "notifications/cancelled": params({ requestId: REQUEST_ID, reason: STRING }),
};

/** A client's answer to one of our requests. */
const RESPONSE = {
  type: "object",
  properties: {
    id: REQUEST_ID,
    result: OBJECT,
    error: { type: "object", properties: { code: { type: "integer" }, message: STRING }, required: ["code", "message"] },
  },
  required: ["id"],
};

const compiled = new Map<string, CompiledSchema>(Object.entries(PARAMS).map(([method, schema]) => [method, compileSchema(schema)]));
const response = compileSchema(RESPONSE);

/** What is wrong with a client's message, as the error to answer (or log) it with. */
export interface ClientMessageProblem {
  /** The method, or "response" for an answer to one of our requests. */
  method: string;
  /** The request's id, or the response's when it is usable, else null. */
  id: JsonRpcId | null;
  error: RpcError;
}

function isId(v: unknown): v is JsonRpcId {
  return typeof v === "string" || (typeof v === "number" && Number.isInteger(v));
}

/**
 * null when every field this server reads from `message` (already a JSON-RPC request, notification or response)
 * has its type; else the problem, for the first field that does not.
 */
export function clientMessageProblem(message: unknown): ClientMessageProblem | null {
  const m = message as { id?: unknown; method?: unknown; params?: unknown };
  if (typeof m.method !== "string") {
    const problem = response.problem(message, "");
    return problem === null ? null : { method: "response", id: isId(m.id) ? m.id : null, error: new RpcError(INVALID_PARAMS, `Invalid response: ${problem}`) };
  }
  const schema = Object.hasOwn(PARAMS, m.method) ? compiled.get(m.method) : undefined;
  if (schema === undefined) return null;
  const problem = schema.problem(m.params ?? {}, "params");
  if (problem === null) return null;
  return { method: m.method, id: isId(m.id) ? m.id : null, error: new RpcError(INVALID_PARAMS, `Invalid params for ${m.method}: ${problem}`) };
}

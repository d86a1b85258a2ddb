// Multi round-trip requests (2026-07-28): a tool that needs the client's user or model mid-call does not send a
// request back; its call ends with an input-required result listing what it needs and a request state, and the
// client calls again with the answers and that state. The tool runs again from the start and finds its answers.
// The state carries the answers of earlier rounds and is signed with this motebit's Ed25519 key, bound to the
// tool, its arguments and the caller: a state that does not verify is refused, never trusted.
import { base64urlDecode, base64urlDecodeUnpadded, base64urlEncode, canonicalJson, fromUtf8, sha256Hex, utf8, verifySignature } from "../../protocol/index.js";
import { holderKey } from "../../principal.js";
import type { MotebitContext } from "../motebit-context.js";
import type { CallContext } from "../call-context.js";
import { INVALID_PARAMS, RpcError } from "../jsonrpc.js";
import { MISSING_CLIENT_CAPABILITY } from "./revision.js";
import { echo } from "../../bounded/echo.js";

/** A state older than this is refused: the client starts the call again. */
const STATE_TTL_MS = 10 * 60_000;

export type InputMethod = "elicitation/create" | "sampling/createMessage" | "roots/list";
const CAPABILITY: Record<InputMethod, string> = { "elicitation/create": "elicitation", "sampling/createMessage": "sampling", "roots/list": "roots" };

/** Thrown into a tool handler that asked for something not answered yet; the call then ends input-required. */
export class InputNeeded extends Error {
  constructor(readonly key: string) {
    super(`waiting for the client's answer to ${key}`);
  }
}

/** One round of one call: the answers known so far, and what the tool asked for that is not answered yet. */
export class InputRound {
  readonly pending: Record<string, { method: InputMethod; params: Record<string, unknown> }> = {};
  /** A capability the tool asked for that the client did not declare (answered -32021 if the tool then fails). */
  missingCapability: string | null = null;
  private counter = 0;

  constructor(
    private readonly c: CallContext,
    readonly answers: Record<string, unknown>,
  ) {}

  /** What a tool's elicit / sample / roots does in this revision. */
  ask(method: InputMethod, params: Record<string, unknown>, key?: string): Promise<unknown> {
    const capability = CAPABILITY[method];
    const caps = this.c.session.clientCapabilities ?? {};
    if (typeof caps[capability] !== "object" || caps[capability] === null) {
      this.missingCapability ??= capability;
      return Promise.reject(new Error(`the client did not declare the ${capability} capability`));
    }
    const k = key ?? `${method}#${this.counter++}`;
    if (Object.hasOwn(this.answers, k)) return Promise.resolve(this.answers[k]);
    this.pending[k] = { method, params };
    return Promise.reject(new InputNeeded(k));
  }

  get needsInput(): boolean {
    return Object.keys(this.pending).length > 0;
  }

  missingCapabilityError(): RpcError {
    const cap = this.missingCapability!;
    return new RpcError(MISSING_CLIENT_CAPABILITY, `Missing required client capability: ${cap}`, { requiredCapabilities: { [cap]: {} } });
  }
}

interface StatePayload {
  v: 1;
  tool: string;
  args: string;
  caller: string;
  asked: string[];
  answers: Record<string, unknown>;
  exp: number;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

function invalid(why: string): RpcError {
  return new RpcError(INVALID_PARAMS, `Invalid requestState: ${why}; send the request again without it`);
}

/** What a 2026-07-28 retry carries: the client's answers, and the state our input-required result gave it. */
export interface Retry {
  inputResponses?: unknown;
  requestState?: unknown;
}

/** A 2026-07-28 request's retry fields; undefined for a session's request, which asks the client over its channel instead. */
export function retryOf(c: CallContext, params: Record<string, unknown>): Retry | undefined {
  return c.call.statelessVersion !== null ? { inputResponses: params.inputResponses, requestState: params.requestState } : undefined;
}

/** The round a (re)try of `tool` (a tool's name, or another subject such as a prompt's) starts with: answers from its verified state and from this request's inputResponses. */
export async function openRound(
  m: MotebitContext,
  c: CallContext,
  tool: string,
  args: unknown,
  retry: Retry,
): Promise<InputRound> {
  if (retry.inputResponses !== undefined && !isObject(retry.inputResponses)) throw new RpcError(INVALID_PARAMS, "inputResponses must be an object keyed by input request");
  const responses = (retry.inputResponses ?? {}) as Record<string, unknown>;
  for (const [k, v] of Object.entries(responses)) {
    if (!isObject(v)) throw new RpcError(INVALID_PARAMS, `inputResponses.${echo(k)} must be an object (the client's result for that request)`);
  }
  // Without a state the answers are the client's word alone, as they always are; a state adds earlier rounds' answers.
  if (retry.requestState === undefined) return new InputRound(c, { ...responses });
  if (typeof retry.requestState !== "string") throw invalid("it must be a string");
  const state = await verifyState(m, retry.requestState);
  if (state.tool !== tool || state.caller !== holderKey(c.principal) || state.args !== (await argsDigest(args))) {
    throw invalid("it belongs to another call");
  }
  if (state.exp < m.clock.now()) throw invalid("it has expired");
  // Only answers to what was asked count; anything else the client sends is ignored.
  const answers = { ...state.answers };
  for (const k of state.asked) if (Object.hasOwn(responses, k)) answers[k] = responses[k];
  return new InputRound(c, answers);
}

/** The input-required result for a round that still needs answers, with its signed state. */
export async function inputRequiredResult(m: MotebitContext, c: CallContext, tool: string, args: unknown, round: InputRound): Promise<Record<string, unknown>> {
  const payload: StatePayload = {
    v: 1,
    tool,
    args: await argsDigest(args),
    caller: holderKey(c.principal),
    asked: Object.keys(round.pending),
    answers: round.answers,
    exp: m.clock.now() + STATE_TTL_MS,
  };
  const body = base64urlEncode(utf8(canonicalJson(payload)));
  const sig = base64urlEncode(await m.signer.sign(utf8(body)));
  return { resultType: "input_required", inputRequests: round.pending, requestState: `${body}.${sig}` };
}

async function argsDigest(args: unknown): Promise<string> {
  return sha256Hex(canonicalJson(args ?? {}));
}

async function verifyState(m: MotebitContext, state: string): Promise<StatePayload> {
  const [body, sig, ...rest] = state.split(".");
  if (rest.length > 0 || !body || !sig) throw invalid("it is malformed");
  let ok = false;
  try {
    ok = await verifySignature(m.publicKeyHex, utf8(body), base64urlDecodeUnpadded(sig));
  } catch {
    ok = false;
  }
  if (!ok) throw invalid("its signature does not verify (it was altered or is not ours)");
  const payload = JSON.parse(fromUtf8(base64urlDecode(body))) as StatePayload;
  if (payload.v !== 1 || !Array.isArray(payload.asked) || !isObject(payload.answers)) throw invalid("it is malformed");
  return payload;
}

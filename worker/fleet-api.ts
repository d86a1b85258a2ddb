// The operator's API under /fleet/, behind MOTEBIT_FLEET_TOKEN (compared in constant time). The directory object
// keeps the list and claims names; each motebit's key is made inside its own object and never crosses this API.
import { Hono, type Context } from "hono";
import {
  constantTimeEqual, DEFAULT_PAGE_SIZE, fleetMotebitUrl, FleetSpecError, fromUtf8, isFleetName, jsonResponse,
  MAX_PAGE_SIZE, parseCreateBody, parsePatchBody, readBodyCapped, readSetting, StartupError, startupFailureResponse, type ToolRegistry,
} from "../src/index.js";
import type { EdgeEnv } from "./env.js";
import { deploymentConfig } from "./durable-object-backend.js";
import { directoryStub, fleetStub, fleetToken } from "./fleet-objects.js";
import { forgetCaller } from "./fleet-callers.js";
import { mountFleetOAuth } from "./fleet-oauth-api.js";
import { operatorSource } from "./caller-source.js";

const MAX_OPERATOR_BODY_BYTES = 256 * 1024;
const NOT_FOUND = () => jsonResponse(404, { error: "not found" });

type Ctx = Context<{ Bindings: EdgeEnv }>;

/** `served`: the Worker's tools module, which a fleet motebit's `tools` must name from. */
export function fleetApi(served: ToolRegistry): Hono<{ Bindings: EdgeEnv }> {
  const app = new Hono<{ Bindings: EdgeEnv }>().basePath("/fleet");
  app.onError((err) => {
    if (err instanceof FleetSpecError) return jsonResponse(400, { error: err.message });
    if (err instanceof StartupError) return startupFailureResponse(err.message);
    console.error("motebit fleet: internal error", err);
    return jsonResponse(500, { error: "internal error" });
  });
  app.notFound(NOT_FOUND);

  app.use("*", async (c, next) => {
    const expected = fleetToken(c.env);
    if (expected === null) return NOT_FOUND();
    const m = /^Bearer[ \t]+(.+)$/i.exec((c.req.header("Authorization") ?? "").trim());
    const tokenOk = m !== null && constantTimeEqual(m[1].trim(), expected);
    // Failed tokens are rate-limited per source (Cloudflare's client address, never one the caller wrote:
    // caller-source.ts) like MCP callers; while a source is over the limit, a right token from it waits too, so
    // the answer tells a guesser nothing.
    const source = operatorSource(c.req.raw);
    const gate = await directoryStub(c.env).directoryOperatorAttempt(source, tokenOk);
    if (!gate.ok) {
      return jsonResponse(429, { error: `too many failed operator tokens; retry after ${gate.retryAfterSeconds} s` }, { "Retry-After": String(gate.retryAfterSeconds) });
    }
    if (!tokenOk) return jsonResponse(401, { error: "unauthorized" }, { "WWW-Authenticate": 'Bearer realm="motebit-fleet"' });
    await next();
  });

  app.post("/motebits", async (c) => {
    const spec = parseCreateBody(await jsonBody(c), deploymentConfig(c.env));
    checkTools(served, spec.tools);
    const directory = directoryStub(c.env);
    if (!(await directory.directoryReserve(spec.name, spec.displayName))) return jsonResponse(409, { error: `${spec.name} already exists` });
    const made = await fleetStub(c.env, spec.name).fleetProvision(spec);
    if (!made.ok) {
      await directory.directoryRemove(spec.name);
      return jsonResponse(made.status, { error: made.error });
    }
    const d = made.value;
    await directory.directoryComplete(spec.name, { motebitId: d.motebit_id, publicKeyHex: d.public_key });
    return jsonResponse(201, { name: d.name, motebit_id: d.motebit_id, public_key: d.public_key, identity: d.identity, mcp_url: mcpUrl(c, d.name) });
  });

  app.get("/motebits", async (c) => {
    const after = c.req.query("after") ?? null;
    const limitText = c.req.query("limit");
    const limit = limitText === undefined ? DEFAULT_PAGE_SIZE : Number(limitText);
    if (!Number.isSafeInteger(limit) || limit < 1 || limit > MAX_PAGE_SIZE) throw new FleetSpecError(`limit must be a whole number from 1 to ${MAX_PAGE_SIZE}`);
    const page = await directoryStub(c.env).directoryList({ after, limit });
    return jsonResponse(200, { motebits: page.motebits.map((e) => ({ ...e, mcp_url: mcpUrl(c, e.name) })), next: page.next });
  });

  // An unknown name is answered from the directory: the motebit's own object is never touched for it.
  app.get("/motebits/:name", async (c) => {
    const name = c.req.param("name");
    if (!isFleetName(name) || (await directoryStub(c.env).directoryGet(name)) === null) return NOT_FOUND();
    const d = await fleetStub(c.env, name).fleetDescribe();
    return d.ok ? jsonResponse(200, { ...d.value, mcp_url: mcpUrl(c, name) }) : jsonResponse(d.status, { error: d.error });
  });

  app.patch("/motebits/:name", async (c) => {
    const name = c.req.param("name");
    if (!isFleetName(name) || (await directoryStub(c.env).directoryGet(name)) === null) return NOT_FOUND();
    const patch = parsePatchBody(await jsonBody(c), deploymentConfig(c.env));
    if (patch.tools !== undefined) checkTools(served, patch.tools);
    const d = await fleetStub(c.env, name).fleetUpdate(patch);
    forgetCaller(name);
    return d.ok ? jsonResponse(200, { ...d.value, mcp_url: mcpUrl(c, name) }) : jsonResponse(d.status, { error: d.error });
  });

  app.delete("/motebits/:name", async (c) => {
    const name = c.req.param("name");
    const directory = directoryStub(c.env);
    const entry = isFleetName(name) ? await directory.directoryGet(name) : null;
    if (entry === null) return NOT_FOUND();
    // The object first: once it is gone the name is free again; a retry after a failure in between finds it gone.
    const retired = await fleetStub(c.env, name).fleetRetire();
    if (!retired.ok && retired.status !== 404) return jsonResponse(retired.status, { error: retired.error });
    await directory.directoryRemove(name);
    forgetCaller(name);
    return jsonResponse(200, { name, motebit_id: entry.motebit_id, public_key: entry.public_key, retired: true });
  });

  mountFleetOAuth(app, jsonBody, mcpUrl);

  return app;
}

async function jsonBody(c: { req: { raw: Request } }): Promise<unknown> {
  const read = await readBodyCapped(c.req.raw.body, MAX_OPERATOR_BODY_BYTES);
  if (!read.ok) throw new FleetSpecError(read.why === "too_large" ? `the body is larger than ${MAX_OPERATOR_BODY_BYTES} bytes` : "the body ended early");
  try {
    return JSON.parse(fromUtf8(read.bytes));
  } catch {
    throw new FleetSpecError("the body is not valid UTF-8 JSON");
  }
}

/** Tool names must be served by this Worker's tools module. */
function checkTools(served: ToolRegistry, tools: string[] | null): void {
  if (tools === null) return;
  try {
    served.only(tools);
  } catch (e) {
    throw new FleetSpecError(`tools: ${(e as Error).message}`);
  }
}

/** Where peers call it: under MOTEBIT_PUBLIC_URL when set (a malformed one is a StartupError), else under the URL the operator used. */
function mcpUrl(c: Ctx, name: string): string {
  const base = readSetting("publicUrl", { env: c.env }) ?? new URL(c.req.url).origin;
  return `${fleetMotebitUrl(base, name)}/mcp`;
}

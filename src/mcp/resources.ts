import type { MotebitContext } from "./motebit-context.js";
import { INVALID_PARAMS, RESOURCE_NOT_FOUND, RpcError } from "./jsonrpc.js";
import { isOwner } from "../principal.js";
import type { Principal } from "../principal.js";
import { riskName } from "../policy/risk.js";
import { shareableWithHost } from "../memory/scope.js";
import { matchTemplate, templateVariables, UnsafeTemplateVariable } from "./uri-template.js";
import type { ServedResource } from "../tools/types.js";
import { echo } from "../bounded/echo.js";
import { admits, type Audience } from "../policy/admission/audience.js";

interface ResourceDef {
  uri: string;
  name: string;
  description: string;
  mimeType: string | ((m: MotebitContext) => string);
  audience: Audience;
  read(m: MotebitContext, p: Principal): Promise<string>;
}

const RESOURCES: ResourceDef[] = [
  {
    uri: "motebit://identity",
    name: "identity",
    description: "The signed identity file (Markdown), or the identity summary (JSON) when none was loaded.",
    mimeType: (m) => (m.identityFileText === null ? "application/json" : "text/markdown"),
    audience: "both",
    async read(m) {
      return m.identityFileText ?? JSON.stringify({ motebit_id: m.motebitId, public_key: m.publicKeyHex, did: m.did, motebit_type: m.type });
    },
  },
  {
    uri: "motebit://state",
    name: "state",
    description: "Public state (identity, governance bands, uptime); the owner also sees memory, receipt and audit counts.",
    mimeType: "application/json",
    audience: "both",
    async read(m, p) {
      const pub = {
        motebit_id: m.motebitId,
        did: m.did,
        motebit_type: m.type,
        governance: {
          max_risk_auto: riskName(m.governance.maxRiskAuto),
          require_approval_above: riskName(m.governance.requireApprovalAbove),
          deny_above: riskName(m.governance.denyAbove),
        },
        model: m.llm?.id ?? null,
        uptime_ms: m.clock.now() - m.startedAt,
        ...(m.relayStatus !== null ? { relay: m.relayStatus() } : {}),
      };
      if (!isOwner(p)) return JSON.stringify(pub);
      return JSON.stringify({
        ...pub,
        memories: m.memory.count(),
        receipts: m.ledger.count(),
        recent_calls: m.audit.list({ limit: 20 }),
      });
    },
  },
  {
    uri: "motebit://memories",
    name: "memories",
    description: "The owner's memories (owner only; medical, financial and secret ones excluded).",
    mimeType: "application/json",
    audience: "owner",
    async read(m) {
      const rows = m.memory.list({ scope: "owner", limit: 500 });
      return JSON.stringify(shareableWithHost(rows));
    },
  },
  {
    uri: "motebit://receipts",
    name: "receipts",
    description: "The receipt ledger: the signed ExecutionReceipts this motebit issued, newest first (owner only).",
    mimeType: "application/json",
    audience: "owner",
    async read(m) {
      return JSON.stringify(m.ledger.list({ limit: 100, offset: 0 }));
    },
  },
];

/** The owner's receipt for one task: the template the ledger answers. */
const RECEIPT_TEMPLATE = "motebit://receipts/{task_id}";
const MAX_COMPLETIONS = 100;

const mimeOf = (r: ResourceDef, m: MotebitContext): string => (typeof r.mimeType === "string" ? r.mimeType : r.mimeType(m));
const servedFor = (m: MotebitContext, p: Principal) => m.registry.resources(p.kind);

export function listResources(m: MotebitContext, p: Principal) {
  const own = RESOURCES.filter((r) => admits(r.audience, p.kind)).map((r) => ({
    uri: r.uri,
    name: r.name,
    description: r.description,
    mimeType: mimeOf(r, m),
  }));
  const served = servedFor(m, p)
    .filter((r) => r.uri !== undefined)
    .map((r) => describe(r, { uri: r.uri! }));
  return [...own, ...served];
}

export function listResourceTemplates(m: MotebitContext, p: Principal) {
  const own = isOwner(p)
    ? [{ uriTemplate: RECEIPT_TEMPLATE, name: "receipt", description: "One signed ExecutionReceipt by its task id (owner only).", mimeType: "application/json" }]
    : [];
  const served = servedFor(m, p)
    .filter((r) => r.uriTemplate !== undefined)
    .map((r) => describe(r, { uriTemplate: r.uriTemplate! }));
  return [...own, ...served];
}

function describe<T extends object>(r: ServedResource, at: T) {
  return {
    ...at,
    name: r.name,
    ...(r.title !== undefined && { title: r.title }),
    ...(r.description !== undefined && { description: r.description }),
    ...(r.mimeType !== undefined && { mimeType: r.mimeType }),
  };
}

/** matchTemplate, with a traversal attempt refused as invalid params naming the variable. */
function varsOf(template: string, uri: string): Record<string, string> | null {
  try {
    return matchTemplate(template, uri);
  } catch (e) {
    if (e instanceof UnsafeTemplateVariable) throw new RpcError(INVALID_PARAMS, `Invalid resource URI ${echo(uri)}: ${e.message}`);
    throw e;
  }
}

/** Whether `uri` names something this principal may read (a subscription to anything else is refused). */
export function resourceExists(m: MotebitContext, p: Principal, uri: string): boolean {
  if (RESOURCES.some((r) => r.uri === uri && admits(r.audience, p.kind))) return true;
  if (isOwner(p) && varsOf(RECEIPT_TEMPLATE, uri) !== null) return true;
  return servedFor(m, p).some((r) => r.uri === uri || (r.uriTemplate !== undefined && varsOf(r.uriTemplate, uri) !== null));
}

export async function readResource(m: MotebitContext, p: Principal, uri: unknown) {
  if (typeof uri !== "string") throw new RpcError(INVALID_PARAMS, "resources/read needs a string 'uri'");
  const def = RESOURCES.find((r) => r.uri === uri);
  if (def) {
    if (!admits(def.audience, p.kind)) {
      throw new RpcError(INVALID_PARAMS, `Denied: ${def.uri} is served only to the owner over stdio`);
    }
    return { contents: [{ uri: def.uri, mimeType: mimeOf(def, m), text: await def.read(m, p) }] };
  }
  const receipt = varsOf(RECEIPT_TEMPLATE, uri);
  if (receipt !== null) {
    if (!isOwner(p)) throw new RpcError(INVALID_PARAMS, "Denied: receipts are served only to the owner over stdio");
    const stored = m.ledger.get(receipt.task_id);
    if (!stored) throw new RpcError(RESOURCE_NOT_FOUND, `Resource not found: no receipt for task ${echo(receipt.task_id)}`);
    return { contents: [{ uri, mimeType: "application/json", text: JSON.stringify(stored.receipt) }] };
  }
  for (const r of servedFor(m, p)) {
    const vars = r.uri === uri ? {} : r.uriTemplate !== undefined ? varsOf(r.uriTemplate, uri) : null;
    if (vars === null) continue;
    const body = await r.read(uri, vars);
    const content = "blob" in body && typeof body.blob === "string" ? { blob: body.blob } : { text: String((body as { text: unknown }).text) };
    return { contents: [{ uri, ...(r.mimeType !== undefined && { mimeType: r.mimeType }), ...content }] };
  }
  throw new RpcError(RESOURCE_NOT_FOUND, `Resource not found: ${echo(uri)}`);
}

/** completion/complete for a resource template variable: task ids for the receipt template, else the module's own. */
export async function completeResourceVariable(m: MotebitContext, p: Principal, uriTemplate: string, variable: string, value: string): Promise<string[]> {
  if (uriTemplate === RECEIPT_TEMPLATE) {
    if (!isOwner(p) || variable !== "task_id") return [];
    return m.ledger
      .list({ limit: 500 })
      .map((s) => s.receipt.task_id)
      .filter((id) => id.startsWith(value))
      .slice(0, MAX_COMPLETIONS);
  }
  const r = servedFor(m, p).find((x) => x.uriTemplate === uriTemplate);
  if (!r || !r.complete || !templateVariables(uriTemplate).includes(variable)) return [];
  return (await r.complete(variable, value)).map(String).slice(0, MAX_COMPLETIONS);
}

import type { MotebitContext } from "./context.js";
import { INVALID_PARAMS, RpcError } from "./jsonrpc.js";
import { isOwner } from "../principal.js";
import type { Principal } from "../principal.js";
import { riskName } from "../policy/risk.js";
import { shareableWithHost } from "./memory-scope.js";
import { echo } from "../protocol/echo.js";

interface ResourceDef {
  uri: string;
  name: string;
  description: string;
  mimeType: string | ((m: MotebitContext) => string);
  ownerOnly: boolean;
  read(m: MotebitContext, p: Principal): Promise<string>;
}

const RESOURCES: ResourceDef[] = [
  {
    uri: "motebit://identity",
    name: "identity",
    description: "The signed identity file (Markdown), or the identity summary (JSON) when none was loaded.",
    mimeType: (m) => (m.identityFileText === null ? "application/json" : "text/markdown"),
    ownerOnly: false,
    async read(m) {
      return m.identityFileText ?? JSON.stringify({ motebit_id: m.motebitId, public_key: m.publicKeyHex, did: m.did, motebit_type: m.type });
    },
  },
  {
    uri: "motebit://state",
    name: "state",
    description: "Public state (identity, governance bands, uptime); the owner also sees memory, receipt and audit counts.",
    mimeType: "application/json",
    ownerOnly: false,
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
    ownerOnly: true,
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
    ownerOnly: true,
    async read(m) {
      return JSON.stringify(m.ledger.list({ limit: 100, offset: 0 }));
    },
  },
];

const mimeOf = (r: ResourceDef, m: MotebitContext): string => (typeof r.mimeType === "string" ? r.mimeType : r.mimeType(m));

export function listResources(m: MotebitContext, p: Principal) {
  return RESOURCES.filter((r) => isOwner(p) || !r.ownerOnly).map((r) => ({
    uri: r.uri,
    name: r.name,
    description: r.description,
    mimeType: mimeOf(r, m),
  }));
}

export async function readResource(m: MotebitContext, p: Principal, uri: unknown) {
  const def = RESOURCES.find((r) => r.uri === uri);
  if (!def) throw new RpcError(INVALID_PARAMS, `Unknown resource: ${echo(uri)}`);
  if (def.ownerOnly && !isOwner(p)) {
    throw new RpcError(INVALID_PARAMS, `Denied: ${def.uri} is served only to the owner over stdio`);
  }
  return { contents: [{ uri: def.uri, mimeType: mimeOf(def, m), text: await def.read(m, p) }] };
}

// What a motebit tells anyone who asks, before any credential: who it is, its governance bands, how a caller may
// authenticate, and its tools exactly as tools/list shows a caller of the lowest trust (the listing's own code,
// with the refusals such a caller would get). Nothing here is owner data: no memories, no callers, no tokens.
import type { MotebitContext } from "../mcp/motebit-context.js";
import { catalogFor, toolRefusal, toolsList } from "../mcp/catalog.js";
import type { Principal } from "../principal.js";
import { riskName } from "../policy/risk.js";
import type { ServerConfig } from "../settings/server-config.js";

/** The caller the discovery documents describe: a peer the motebit knows nothing about. */
export const ANONYMOUS_PEER: Principal = Object.freeze({ kind: "peer", callerId: "anonymous", via: "self_signed", trust: "first_contact" });

export type ListedTool = ReturnType<typeof toolsList>[number] & { risk: string | null };

export interface PublicFacts {
  name: string;
  motebit_id: string;
  did: string;
  public_key: string;
  type: string;
  governance: { max_risk_auto: string; require_approval_above: string; deny_above: string };
  /** Which credentials this motebit accepts at its /mcp. */
  auth: { static_token: boolean; signed_token: true; oauth: true };
  tools: ListedTool[];
}

/** `name`: a fleet motebit's name, else the identity file's service name, else "motebit". */
export function publicFacts(m: MotebitContext, config: ServerConfig, fleetName: string | null): PublicFacts {
  const entries = catalogFor(m, "peer").entries;
  const listed = toolsList(entries, (e) => toolRefusal(m, ANONYMOUS_PEER, e));
  const g = m.governance;
  return {
    name: fleetName ?? m.identityDoc?.service_name ?? "motebit",
    motebit_id: m.motebitId,
    did: m.did,
    public_key: m.publicKeyHex,
    type: m.type,
    governance: { max_risk_auto: riskName(g.maxRiskAuto), require_approval_above: riskName(g.requireApprovalAbove), deny_above: riskName(g.denyAbove) },
    auth: { static_token: config.staticTokens.size > 0, signed_token: true, oauth: true },
    tools: listed.map((t, i) => ({ ...t, risk: entries[i].risk === null ? null : riskName(entries[i].risk) })),
  };
}

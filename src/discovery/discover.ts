// One motebit's public answer to "who are you?": its facts and the three signed documents, all on the URLs the
// host vouches for. The backend (the motebit's Durable Object at the edge, the process in Node) computes it, since
// the key, the governance and the tool catalog live there.
import type { MotebitContext } from "../mcp/motebit-context.js";
import type { OAuthUrls } from "../oauth/urls.js";
import type { ServerConfig } from "../settings/server-config.js";
import { agentCard, registryServerJson, serverCard, type DiscoveryDocuments } from "./documents.js";
import { publicFacts, type PublicFacts } from "./public-facts.js";

export interface Discovery {
  facts: PublicFacts;
  documents: DiscoveryDocuments;
}

export async function discover(m: MotebitContext, config: ServerConfig, urls: OAuthUrls, fleetName: string | null): Promise<Discovery> {
  const facts = publicFacts(m, config, fleetName);
  const [card, serverJson, agent] = await Promise.all([serverCard(facts, urls, m.signer), registryServerJson(facts, urls, m.signer), agentCard(facts, urls, m.signer)]);
  return { facts, documents: { serverCard: card, serverJson, agentCard: agent } };
}

// What a motebit tells the relay about itself: where it is reachable and what it can do.
import type { Motebit } from "../motebit.js";
import type { RegisterBody } from "./client.js";

/** The tools a peer may call (served, not localOnly), then the identity file's capabilities; no duplicates. */
export function relayCapabilities(m: Pick<Motebit, "registry" | "identityDoc">): string[] {
  const names = m.registry.list("peer").map((t) => t.definition.name);
  return [...new Set([...names, ...(m.identityDoc?.capabilities ?? [])])];
}

export function registerBody(m: Pick<Motebit, "motebitId" | "publicKeyHex" | "did" | "type" | "registry" | "identityDoc">, endpointUrl: string): RegisterBody {
  const doc = m.identityDoc;
  return {
    motebit_id: m.motebitId,
    public_key: m.publicKeyHex,
    endpoint_url: endpointUrl,
    capabilities: relayCapabilities(m),
    metadata: {
      name: doc?.service_name ?? `motebit-${m.motebitId.slice(0, 8)}`,
      ...(doc?.service_description ? { description: doc.service_description } : {}),
      motebit_type: m.type,
      did: m.did,
    },
  };
}

/** Where the relay should send tasks, or why this host does not register. */
export type Endpoint = { url: string; warning: string | null } | { url: null; why: string };

const LOOPBACK_BINDS = new Set(["127.0.0.1", "localhost", "::1", "[::1]"]);

export function isLoopbackBind(host: string): boolean {
  return LOOPBACK_BINDS.has(host);
}

/**
 * The edge needs publicUrl (it cannot see its own address). motebit-local without publicUrl registers
 * its loopback address, which only a relay on the same machine can reach; bound elsewhere it does not guess.
 */
export function resolveEndpoint(
  publicUrl: string | null,
  host: { kind: "edge" } | { kind: "local"; bind: string; port: number },
): Endpoint {
  if (publicUrl !== null) return { url: publicUrl, warning: null };
  if (host.kind === "edge") {
    return { url: null, why: "MOTEBIT_SYNC_URL is set but MOTEBIT_PUBLIC_URL is not: set it to this Worker's URL so the relay can reach it; not registering" };
  }
  if (isLoopbackBind(host.bind)) {
    const url = `http://127.0.0.1:${host.port}`;
    return { url, warning: `registering ${url}: only a relay on this machine can reach it (set publicUrl for any other relay)` };
  }
  return { url: null, why: `bound to ${host.bind} without publicUrl: set publicUrl (MOTEBIT_PUBLIC_URL) to the address the relay should use; not registering` };
}

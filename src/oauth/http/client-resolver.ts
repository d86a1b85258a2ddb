// The client behind a client_id (at /authorize, and at the token endpoint for a keyed client): registered here
// (RFC 7591), or its Client ID Metadata Document, fetched unless it is still fresh by its Cache-Control
// (document-freshness.ts). A document client seen for the first time is stored as a registration from the same
// source is, under the same caps; its keys (carried, or fetched from its jwks_uri as the document is) are kept in
// memory only, with the document they came from, until the sooner of the two goes stale.
import type { Clock } from "../../ports.js";
import { checkClientKeys } from "../client-auth/client-keys.js";
import { checkMetadataDocument, isMetadataDocumentUrl, type ClientMetadata } from "../client-metadata.js";
import type { OAuthStore, StoredClient } from "../store.js";
import { DOCUMENT_DEFAULT_FRESH_MS } from "./document-freshness.js";
import type { FetchClientMetadata } from "./metadata-document-fetch.js";

/** How many documents are remembered (a fleet object or a process serves one motebit): then the memory starts over. */
const MAX_REMEMBERED_DOCUMENTS = 500;

export type ResolvedClient = { ok: true; client: ClientMetadata } | { ok: false; why: string };

export class ClientResolver {
  /** Each metadata document as checked, until it goes stale (this process's or object's memory only). */
  private readonly documents = new Map<string, { client: ClientMetadata; staleAt: number }>();

  /** `loopback`: tests only, documents at https://localhost:<port>/… too (client-metadata.ts isMetadataDocumentUrl). */
  constructor(private readonly store: OAuthStore, private readonly clock: Clock, private readonly fetchDocument: FetchClientMetadata, private readonly loopback = false) {}

  async resolve(clientId: string, source: string): Promise<ResolvedClient> {
    const stored = this.store.client(clientId);
    if (stored !== null && stored.kind === "registered") return { ok: true, client: stored };
    if (!isMetadataDocumentUrl(clientId, this.loopback)) return { ok: false, why: "this client is not registered here (register it, or use an https Client ID Metadata Document URL)" };
    const now = this.clock.now();
    const remembered = this.documents.get(clientId);
    if (stored !== null && remembered !== undefined && now < remembered.staleAt) return { ok: true, client: remembered.client };
    const fetched = await this.fetchDocument(clientId);
    if (!fetched.ok) return { ok: false, why: `its Client ID Metadata Document could not be fetched: ${fetched.why}` };
    const checked = checkMetadataDocument(clientId, fetched.document);
    if (!checked.ok) return { ok: false, why: `its Client ID Metadata Document is not usable: ${checked.why}` };
    const keyed = await this.withKeys(checked.value);
    if (!keyed.ok) return keyed;
    const freshFor = Math.min(fetched.freshForMs ?? DOCUMENT_DEFAULT_FRESH_MS, keyed.freshForMs);
    if (this.documents.size >= MAX_REMEMBERED_DOCUMENTS) this.documents.clear();
    if (freshFor > 0) this.documents.set(clientId, { client: keyed.client, staleAt: now + freshFor });
    else this.documents.delete(clientId);
    const client: StoredClient = { clientId, kind: "metadata_document", name: checked.value.name, redirectUris: checked.value.redirectUris, createdAt: stored?.createdAt ?? now };
    if (stored === null) this.store.register(client, source, now);
    else this.store.saveClient(client);
    return { ok: true, client: keyed.client };
  }

  /** The client with its keys: those its document carries, or those at its jwks_uri (the same fetch, limits and URL rules). */
  private async withKeys(c: ClientMetadata): Promise<{ ok: true; client: ClientMetadata; freshForMs: number } | { ok: false; why: string }> {
    if (c.jwksUri === undefined) return { ok: true, client: c, freshForMs: Infinity };
    if (!isMetadataDocumentUrl(c.jwksUri, this.loopback)) return { ok: false, why: "its jwks_uri is not an https URL this server fetches (a host name and a path)" };
    const fetched = await this.fetchDocument(c.jwksUri);
    if (!fetched.ok) return { ok: false, why: `its jwks_uri could not be fetched: ${fetched.why}` };
    const keys = checkClientKeys(fetched.document);
    if (!keys.ok) return { ok: false, why: `its jwks_uri is not usable: ${keys.why}` };
    return { ok: true, client: { ...c, keys: keys.keys }, freshForMs: fetched.freshForMs ?? DOCUMENT_DEFAULT_FRESH_MS };
  }
}

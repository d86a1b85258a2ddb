// The client behind a client_id at /authorize: registered here (RFC 7591), or its Client ID Metadata Document,
// fetched unless it was a moment ago. A document client seen for the first time is stored as a registration from
// the same source is, under the same caps.
import type { Clock } from "../../ports.js";
import { checkMetadataDocument, isMetadataDocumentUrl, type ClientMetadata } from "../client-metadata.js";
import type { OAuthStore, StoredClient } from "../store.js";
import type { FetchClientMetadata } from "./metadata-document-fetch.js";

/** A metadata document fetched this recently is not fetched again for another /authorize. */
const DOCUMENT_FRESH_MS = 5 * 60_000;
/** How many fetch times are remembered (a fleet object or a process serves one motebit): then the memory starts over. */
const MAX_REMEMBERED_FETCHES = 1000;

export type ResolvedClient = { ok: true; client: ClientMetadata } | { ok: false; why: string };

export class ClientResolver {
  /** When each metadata document was last fetched (this process's or object's memory only). */
  private readonly fetchedAt = new Map<string, number>();

  constructor(private readonly store: OAuthStore, private readonly clock: Clock, private readonly fetchDocument: FetchClientMetadata) {}

  async resolve(clientId: string, source: string): Promise<ResolvedClient> {
    const stored = this.store.client(clientId);
    if (stored !== null && stored.kind === "registered") return { ok: true, client: stored };
    if (!isMetadataDocumentUrl(clientId)) return { ok: false, why: "this client is not registered here (register it, or use an https Client ID Metadata Document URL)" };
    const now = this.clock.now();
    if (stored !== null && now - (this.fetchedAt.get(clientId) ?? -Infinity) < DOCUMENT_FRESH_MS) return { ok: true, client: stored };
    const fetched = await this.fetchDocument(clientId);
    if (!fetched.ok) return { ok: false, why: `its Client ID Metadata Document could not be fetched: ${fetched.why}` };
    const checked = checkMetadataDocument(clientId, fetched.document);
    if (!checked.ok) return { ok: false, why: `its Client ID Metadata Document is not usable: ${checked.why}` };
    if (this.fetchedAt.size >= MAX_REMEMBERED_FETCHES) this.fetchedAt.clear();
    this.fetchedAt.set(clientId, now);
    const client: StoredClient = { clientId, kind: "metadata_document", ...checked.value, createdAt: stored?.createdAt ?? now };
    if (stored === null) this.store.register(client, source, now);
    else this.store.saveClient(client);
    return { ok: true, client: checked.value };
  }
}

// The motebit's OAuth state in its own SQLite (the Durable Object's at the edge, the local file in Node): clients,
// consent requests waiting for the owner, and grants. Single use is a conditional UPDATE: of any number of
// concurrent redemptions of one code or one refresh token, exactly one changes the row.
import type { CallerTrust } from "../principal.js";
import type { SqlPort } from "../ports.js";
import { migrate, type StoreSchema } from "../storage/migrations.js";
import { count } from "../telemetry/instruments.js";
import type { TelemetryPort } from "../telemetry/port.js";

export interface StoredClient {
  clientId: string;
  /** "registered": RFC 7591 dynamic registration; "metadata_document": a Client ID Metadata Document URL. */
  kind: "registered" | "metadata_document";
  name: string;
  redirectUris: string[];
  createdAt: number;
}

export interface ConsentRequest {
  /** The short code the owner approves (XXXX-XXXX). */
  code: string;
  clientId: string;
  redirectUri: string;
  codeChallenge: string;
  state: string | null;
  resource: string;
  /** Bound to the browser that opened the page (cookie and form field). */
  csrf: string;
  expiresAt: number;
}

export interface Grant {
  id: string;
  clientId: string;
  trust: CallerTrust;
  resource: string;
  redirectUri: string;
  codeChallenge: string;
  /** Null once the code was redeemed. */
  codeHash: string | null;
  codeExpiresAt: number;
  refreshHash: string | null;
  refreshExpiresAt: number | null;
  createdAt: number;
  revokedAt: number | null;
}

export interface ClientListing {
  client_id: string;
  name: string;
  kind: StoredClient["kind"];
  /** approved: a grant stands; revoked: the owner ended every grant it had; never_approved: only registered. */
  status: "approved" | "revoked" | "never_approved";
  trust: CallerTrust | null;
  live_grants: number;
  created_at: number;
}

/** What the owner's `list` answers: the clients with access, apart from those revoked and those never approved. */
export interface OwnerListing {
  clients: ClientListing[];
  revoked: ClientListing[];
  never_approved: ClientListing[];
}

export function ownerListing(all: readonly ClientListing[]): OwnerListing {
  return { clients: all.filter((c) => c.status === "approved"), revoked: all.filter((c) => c.status === "revoked"), never_approved: all.filter((c) => c.status === "never_approved") };
}

/**
 * Unauthenticated endpoints write here (registrations, metadata-document clients, consent requests). Each is capped
 * in all and per source (the caller's address, which it cannot choose), and a full table makes room by dropping its
 * oldest never-approved row, never by refusing: one source only ever churns its own rows, and many sources must
 * outpace the owner's approval to push out someone else's. A client with a grant is never dropped.
 */
export const MAX_PENDING_REQUESTS = 200;
export const MAX_PENDING_REQUESTS_PER_SOURCE = 10;
export const MAX_UNGRANTED_CLIENTS = 1000;
export const MAX_UNGRANTED_CLIENTS_PER_SOURCE = 20;
const EXPIRED_REQUEST_KEPT_MS = 60 * 60_000;
/** A registered client nobody approved within a day is dropped. */
const UNGRANTED_CLIENT_TTL_MS = 24 * 60 * 60_000;

type ClientRow = { client_id: string; kind: StoredClient["kind"]; name: string; redirect_uris: string; created_at: number };
type RequestRow = { code: string; client_id: string; redirect_uri: string; code_challenge: string; state: string | null; resource: string; csrf: string; expires_at: number };
type GrantRow = {
  id: string; client_id: string; trust: CallerTrust; resource: string; redirect_uri: string; code_challenge: string; code_hash: string | null;
  code_expires_at: number; refresh_hash: string | null; refresh_expires_at: number | null; created_at: number; revoked_at: number | null;
};

/** The OAuth tables (clients, consent requests, grants), through the one migration runner (src/storage/migrations.ts). */
export const OAUTH_SCHEMA: StoreSchema = {
  store: "oauth",
  steps: [
    (sql) => {
      sql.run(`CREATE TABLE IF NOT EXISTS oauth_clients (
        client_id TEXT PRIMARY KEY, kind TEXT NOT NULL, name TEXT NOT NULL, redirect_uris TEXT NOT NULL, created_at INTEGER NOT NULL)`);
      sql.run(`CREATE TABLE IF NOT EXISTS oauth_requests (
        code TEXT PRIMARY KEY, client_id TEXT NOT NULL, redirect_uri TEXT NOT NULL, code_challenge TEXT NOT NULL, state TEXT,
        resource TEXT NOT NULL, csrf TEXT NOT NULL, expires_at INTEGER NOT NULL)`);
      sql.run(`CREATE TABLE IF NOT EXISTS oauth_grants (
        id TEXT PRIMARY KEY, client_id TEXT NOT NULL, trust TEXT NOT NULL, resource TEXT NOT NULL, redirect_uri TEXT NOT NULL,
        code_challenge TEXT NOT NULL, code_hash TEXT UNIQUE, code_expires_at INTEGER NOT NULL, refresh_hash TEXT,
        refresh_expires_at INTEGER, created_at INTEGER NOT NULL, revoked_at INTEGER)`);
      sql.run("CREATE INDEX IF NOT EXISTS oauth_grants_client ON oauth_grants (client_id)");
    },
    (sql) => {
      // The refresh tokens each grant rotated out, by hash: one of them coming back is reuse; a token this server
      // never issued is not, and changes nothing (the grant id in it is readable in any access token).
      sql.run("CREATE TABLE oauth_rotated_refresh (hash TEXT PRIMARY KEY, grant_id TEXT NOT NULL, rotated_at INTEGER NOT NULL)");
      sql.run("CREATE INDEX oauth_rotated_refresh_grant ON oauth_rotated_refresh (grant_id, rotated_at)");
    },
    // Who made each anonymous row, so the caps hold per source (rows from before: source NULL, counted in all only).
    (sql) => {
      sql.run("ALTER TABLE oauth_clients ADD COLUMN source TEXT");
      sql.run("ALTER TABLE oauth_requests ADD COLUMN source TEXT");
      sql.run("CREATE INDEX oauth_clients_source ON oauth_clients (source, created_at)");
      sql.run("CREATE INDEX oauth_requests_source ON oauth_requests (source, expires_at)");
    },
  ],
};

export class OAuthStore {
  /** `telemetry`: grants made and revoked are counted there (the operator's OpenTelemetry), when given. */
  constructor(
    private readonly sql: SqlPort,
    private readonly telemetry: TelemetryPort | null = null,
  ) {}

  /** Idempotent. */
  migrate(): void {
    migrate(this.sql, OAUTH_SCHEMA);
  }

  // ---- clients ----

  /**
   * Saves a client nobody approved yet, made by `source`: after pruning stale ones, the source's oldest makes room
   * when it has its share, then the oldest of all when the table is full.
   */
  register(c: StoredClient, source: string, now: number): void {
    const ungranted = "client_id NOT IN (SELECT client_id FROM oauth_grants)";
    this.sql.transaction(() => {
      this.sql.run(`DELETE FROM oauth_clients WHERE created_at < ? AND ${ungranted}`, now - UNGRANTED_CLIENT_TTL_MS);
      const drop = (id: string) => {
        this.sql.run("DELETE FROM oauth_clients WHERE client_id = ?", id);
        this.sql.run("DELETE FROM oauth_requests WHERE client_id = ?", id);
      };
      this.keepUnder(`SELECT client_id AS id FROM oauth_clients WHERE source = ? AND ${ungranted} ORDER BY created_at, client_id`, MAX_UNGRANTED_CLIENTS_PER_SOURCE, drop, source);
      this.keepUnder(`SELECT client_id AS id FROM oauth_clients WHERE ${ungranted} ORDER BY created_at, client_id`, MAX_UNGRANTED_CLIENTS, drop);
      this.saveClient(c);
      this.sql.run("UPDATE oauth_clients SET source = ? WHERE client_id = ?", source, c.clientId);
    });
  }

  /** Drops the first rows `select` lists (oldest first, as `id`) until one more fits under `max`. */
  private keepUnder(select: string, max: number, drop: (id: string) => void, ...params: (string | number)[]): void {
    const rows = this.sql.all<{ id: string }>(select, ...params);
    for (const { id } of rows.slice(0, Math.max(0, rows.length - max + 1))) drop(id);
  }

  /** A metadata document's client is saved as last fetched. */
  saveClient(c: StoredClient): void {
    this.sql.run(
      `INSERT INTO oauth_clients (client_id, kind, name, redirect_uris, created_at) VALUES (?, ?, ?, ?, ?)
       ON CONFLICT (client_id) DO UPDATE SET name = excluded.name, redirect_uris = excluded.redirect_uris`,
      c.clientId, c.kind, c.name, JSON.stringify(c.redirectUris), c.createdAt,
    );
  }

  client(clientId: string): StoredClient | null {
    const [r] = this.sql.all<ClientRow>("SELECT * FROM oauth_clients WHERE client_id = ?", clientId);
    return r === undefined ? null : { clientId: r.client_id, kind: r.kind, name: r.name, redirectUris: JSON.parse(r.redirect_uris) as string[], createdAt: r.created_at };
  }

  listClients(): ClientListing[] {
    return this.sql.all<ClientListing>(
      `SELECT c.client_id, c.name, c.kind, c.created_at,
         (SELECT g.trust FROM oauth_grants g WHERE g.client_id = c.client_id AND g.revoked_at IS NULL ORDER BY g.created_at DESC LIMIT 1) AS trust,
         (SELECT COUNT(*) FROM oauth_grants g WHERE g.client_id = c.client_id AND g.revoked_at IS NULL) AS live_grants,
         CASE WHEN EXISTS (SELECT 1 FROM oauth_grants g WHERE g.client_id = c.client_id AND g.revoked_at IS NULL) THEN 'approved'
              WHEN EXISTS (SELECT 1 FROM oauth_grants g WHERE g.client_id = c.client_id) THEN 'revoked' ELSE 'never_approved' END AS status
       FROM oauth_clients c ORDER BY c.created_at, c.client_id`,
    );
  }

  /**
   * Revokes every grant of the client and drops its pending requests; whether the client was known. Its registration
   * stays: the client still holds its client_id, and going through consent again (the owner approving anew) is how
   * it comes back, not a dead end at "unknown client".
   */
  revokeClient(clientId: string, now: number): boolean {
    return this.sql.transaction(() => {
      const grants = this.sql.run("UPDATE oauth_grants SET revoked_at = ?, refresh_hash = NULL, code_hash = NULL WHERE client_id = ? AND revoked_at IS NULL", now, clientId).changes;
      count(this.telemetry, (i) => i.oauthRevocations, grants);
      this.sql.run("DELETE FROM oauth_rotated_refresh WHERE grant_id IN (SELECT id FROM oauth_grants WHERE client_id = ?)", clientId);
      this.sql.run("DELETE FROM oauth_requests WHERE client_id = ?", clientId);
      return grants > 0 || this.client(clientId) !== null;
    });
  }

  // ---- consent requests ----

  /**
   * Opens a request made by `source`: its own oldest pending one makes room when it has its share, then the oldest
   * of all when the table is full. An expired request is kept an hour, so a late answer to it still goes back to
   * its client as access_denied; then it is pruned.
   */
  openRequest(r: ConsentRequest, source: string, now: number): void {
    this.sql.transaction(() => {
      this.sql.run("DELETE FROM oauth_requests WHERE expires_at < ?", now - EXPIRED_REQUEST_KEPT_MS);
      const drop = (code: string) => void this.sql.run("DELETE FROM oauth_requests WHERE code = ?", code);
      this.keepUnder("SELECT code AS id FROM oauth_requests WHERE source = ? AND expires_at >= ? ORDER BY expires_at, code", MAX_PENDING_REQUESTS_PER_SOURCE, drop, source, now);
      this.keepUnder("SELECT code AS id FROM oauth_requests WHERE expires_at >= ? ORDER BY expires_at, code", MAX_PENDING_REQUESTS, drop, now);
      this.sql.run(
        "INSERT INTO oauth_requests (code, client_id, redirect_uri, code_challenge, state, resource, csrf, expires_at, source) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
        r.code, r.clientId, r.redirectUri, r.codeChallenge, r.state, r.resource, r.csrf, r.expiresAt, source,
      );
    });
  }

  request(code: string): ConsentRequest | null {
    const [r] = this.sql.all<RequestRow>("SELECT * FROM oauth_requests WHERE code = ?", code);
    return r === undefined ? null : {
      code: r.code, clientId: r.client_id, redirectUri: r.redirect_uri, codeChallenge: r.code_challenge, state: r.state,
      resource: r.resource, csrf: r.csrf, expiresAt: r.expires_at,
    };
  }

  /** Ends a request (approved, denied or expired); true for the one caller that ended it. */
  closeRequest(code: string): boolean {
    return this.sql.run("DELETE FROM oauth_requests WHERE code = ?", code).changes === 1;
  }

  // ---- grants ----

  createGrant(g: Omit<Grant, "refreshHash" | "refreshExpiresAt" | "revokedAt">): void {
    this.sql.run(
      `INSERT INTO oauth_grants (id, client_id, trust, resource, redirect_uri, code_challenge, code_hash, code_expires_at, created_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      g.id, g.clientId, g.trust, g.resource, g.redirectUri, g.codeChallenge, g.codeHash, g.codeExpiresAt, g.createdAt,
    );
    count(this.telemetry, (i) => i.oauthGrants);
  }

  grantByCode(codeHash: string): Grant | null {
    return toGrant(this.sql.all<GrantRow>("SELECT * FROM oauth_grants WHERE code_hash = ?", codeHash)[0]);
  }

  grant(id: string): Grant | null {
    return toGrant(this.sql.all<GrantRow>("SELECT * FROM oauth_grants WHERE id = ?", id)[0]);
  }

  /** The code's one redemption: true for exactly one caller, who gets the refresh token recorded here. */
  redeemCode(grantId: string, codeHash: string, refreshHash: string, refreshExpiresAt: number): boolean {
    return this.sql.run(
      "UPDATE oauth_grants SET code_hash = NULL, refresh_hash = ?, refresh_expires_at = ? WHERE id = ? AND code_hash = ? AND revoked_at IS NULL",
      refreshHash, refreshExpiresAt, grantId, codeHash,
    ).changes === 1;
  }

  /**
   * The refresh token's one use: true for exactly one caller presenting the current one, whose token is remembered
   * as rotated out at `now`. Rotated tokens older than `forgetBefore` (past their own expiry) are forgotten.
   */
  rotateRefresh(grantId: string, oldHash: string, newHash: string, refreshExpiresAt: number, now: number, forgetBefore: number): boolean {
    return this.sql.transaction(() => {
      const changed = this.sql.run(
        "UPDATE oauth_grants SET refresh_hash = ?, refresh_expires_at = ? WHERE id = ? AND refresh_hash = ? AND revoked_at IS NULL",
        newHash, refreshExpiresAt, grantId, oldHash,
      ).changes === 1;
      if (!changed) return false;
      this.sql.run("INSERT INTO oauth_rotated_refresh (hash, grant_id, rotated_at) VALUES (?, ?, ?)", oldHash, grantId, now);
      this.sql.run("DELETE FROM oauth_rotated_refresh WHERE grant_id = ? AND rotated_at < ?", grantId, forgetBefore);
      return true;
    });
  }

  /** When the grant rotated out the refresh token with this hash; null for a token it never issued (or forgot). */
  rotatedAt(grantId: string, hash: string): number | null {
    return this.sql.all<{ rotated_at: number }>("SELECT rotated_at FROM oauth_rotated_refresh WHERE hash = ? AND grant_id = ?", hash, grantId)[0]?.rotated_at ?? null;
  }

  revokeGrant(id: string, now: number): void {
    this.sql.transaction(() => {
      const { changes } = this.sql.run("UPDATE oauth_grants SET revoked_at = ?, refresh_hash = NULL, code_hash = NULL WHERE id = ? AND revoked_at IS NULL", now, id);
      this.sql.run("DELETE FROM oauth_rotated_refresh WHERE grant_id = ?", id);
      count(this.telemetry, (i) => i.oauthRevocations, changes);
    });
  }

  /** A grant whose tokens are still honoured: redeemed and not revoked. */
  isLive(id: string): boolean {
    return this.sql.all("SELECT 1 FROM oauth_grants WHERE id = ? AND revoked_at IS NULL AND code_hash IS NULL", id).length === 1;
  }
}

function toGrant(r: GrantRow | undefined): Grant | null {
  if (r === undefined) return null;
  return {
    id: r.id, clientId: r.client_id, trust: r.trust, resource: r.resource, redirectUri: r.redirect_uri, codeChallenge: r.code_challenge,
    codeHash: r.code_hash, codeExpiresAt: r.code_expires_at, refreshHash: r.refresh_hash, refreshExpiresAt: r.refresh_expires_at,
    createdAt: r.created_at, revokedAt: r.revoked_at,
  };
}

// The DPoP key a grant's refresh tokens are bound to (RFC 9449 §5: a public client's refresh token is bound to the
// key of the proof it was first issued with): its RFC 7638 thumbprint by grant, in a table of its own beside the
// grants, so a refresh must be proved by the same key.
import type { SqlPort } from "../../ports.js";
import { migrate, type StoreSchema } from "../../storage/migrations.js";

export const GRANT_KEYS_SCHEMA: StoreSchema = {
  store: "oauth_grant_keys",
  steps: [(sql) => void sql.run("CREATE TABLE IF NOT EXISTS oauth_grant_keys (grant_id TEXT PRIMARY KEY, jkt TEXT NOT NULL)")],
};

export class GrantKeys {
  constructor(private readonly sql: SqlPort) {}

  migrate(): void {
    migrate(this.sql, GRANT_KEYS_SCHEMA);
  }

  bind(grantId: string, jkt: string): void {
    this.sql.run("INSERT INTO oauth_grant_keys (grant_id, jkt) VALUES (?, ?) ON CONFLICT (grant_id) DO NOTHING", grantId, jkt);
  }

  /** The thumbprint the grant's refresh tokens are bound to; null for a grant redeemed without DPoP. */
  of(grantId: string): string | null {
    return this.sql.all<{ jkt: string }>("SELECT jkt FROM oauth_grant_keys WHERE grant_id = ?", grantId)[0]?.jkt ?? null;
  }
}

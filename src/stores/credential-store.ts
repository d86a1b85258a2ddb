// The credentials this motebit holds (W3C VCs a relay or peer issued to it), kept so motebit_credentials can
// present them. Only verified credentials about this motebit get in (checkCredential); the owner adds them
// (motebit-local credentials add), and an expired one is no longer presented.
import type { SqlPort } from "../ports.js";
import { canonicalJson, checkCredential, sha256Hex } from "../protocol/index.js";

/** A motebit holds few credentials; past this, adding is refused rather than growing without bound. */
export const MAX_CREDENTIALS = 1000;

export interface HeldCredential {
  id: string;
  issuer: string;
  addedAt: number;
  credential: Record<string, unknown>;
}

interface Row {
  id: string;
  issuer: string;
  added_at: number;
  json: string;
}

export class CredentialStore {
  constructor(private readonly sql: SqlPort) {}

  /** Idempotent. */
  migrate(): void {
    this.sql.run(
      `CREATE TABLE IF NOT EXISTS credentials (
        id TEXT PRIMARY KEY,
        issuer TEXT NOT NULL,
        added_at INTEGER NOT NULL,
        json TEXT NOT NULL
      )`,
    );
  }

  /**
   * Verifies and keeps `vc` (the same credential twice is kept once); throws an Error saying why it was refused.
   * `subject` is this motebit's did:key.
   */
  async add(vc: unknown, o: { subject: string; now: number }): Promise<{ id: string; added: boolean }> {
    const check = await checkCredential(vc, o);
    if (!check.ok) throw new Error(`credential refused: ${check.error}`);
    const json = canonicalJson(check.credential);
    const id = `urn:sha256:${await sha256Hex(json)}`;
    if (this.sql.all(`SELECT 1 FROM credentials WHERE id = ?`, id).length > 0) return { id, added: false };
    const [{ n }] = this.sql.all<{ n: number }>(`SELECT COUNT(*) AS n FROM credentials`);
    if (n >= MAX_CREDENTIALS) throw new Error(`credential refused: this motebit already holds ${MAX_CREDENTIALS} credentials`);
    this.sql.run(`INSERT INTO credentials (id, issuer, added_at, json) VALUES (?, ?, ?, ?)`, id, check.issuer, o.now, json);
    return { id, added: true };
  }

  /** Every credential held, oldest first. */
  list(): HeldCredential[] {
    return this.sql
      .all<Row>(`SELECT id, issuer, added_at, json FROM credentials ORDER BY added_at, rowid`)
      .map((r) => ({ id: r.id, issuer: r.issuer, addedAt: Number(r.added_at), credential: JSON.parse(r.json) as Record<string, unknown> }));
  }

  /** What motebit_credentials presents at `now`: the held credentials that have not expired. */
  presentable(now: number): Record<string, unknown>[] {
    return this.list()
      .map((h) => h.credential)
      .filter((c) => [c.validUntil, c.expirationDate].every((u) => typeof u !== "string" || Date.parse(u) > now));
  }
}

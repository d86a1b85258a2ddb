// The credentials this motebit holds (W3C VCs a relay or peer issued to it), kept so motebit_credentials can
// present them. Only verified credentials about this motebit get in (checkCredential); the owner adds them
// (motebit-local credentials add); one expired, not yet valid, or issued by the motebit to itself is not presented.
import type { SqlPort } from "../ports.js";
import { canonicalJson, checkCredential, sha256Hex } from "../protocol/index.js";
import { migrate, type StoreSchema } from "../storage/migrations.js";

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

export const CREDENTIAL_SCHEMA: StoreSchema = {
  store: "credentials",
  steps: [
    (sql) =>
      void sql.run(
        `CREATE TABLE IF NOT EXISTS credentials (
          id TEXT PRIMARY KEY,
          issuer TEXT NOT NULL,
          added_at INTEGER NOT NULL,
          json TEXT NOT NULL
        )`,
      ),
  ],
};

export class CredentialStore {
  constructor(private readonly sql: SqlPort) {}

  /** Idempotent. */
  migrate(): void {
    migrate(this.sql, CREDENTIAL_SCHEMA);
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

  /** What motebit_credentials presents at `now`: the held credentials notPresentedBecause lets through. */
  presentable(now: number): Record<string, unknown>[] {
    return this.list()
      .filter((h) => notPresentedBecause(h, now) === null)
      .map((h) => h.credential);
  }
}

/**
 * Why a held credential is not presented at `now`, or null when it is: expired (validUntil / v1 expirationDate),
 * not yet valid (validFrom / v1 issuanceDate in the future), or self-issued (its issuer is its subject, this
 * motebit: it vouches for nothing). A date that does not parse fails closed.
 */
export function notPresentedBecause(h: HeldCredential, now: number): string | null {
  const c = h.credential;
  for (const field of ["validUntil", "expirationDate"]) {
    const v = c[field];
    if (typeof v === "string" && !(Date.parse(v) > now)) return `expired: ${field} ${v}`;
  }
  for (const field of ["validFrom", "issuanceDate"]) {
    const v = c[field];
    if (typeof v === "string" && !(Date.parse(v) <= now)) return `not yet valid: ${field} ${v}`;
  }
  const subject = c.credentialSubject;
  if (typeof subject === "object" && subject !== null && (subject as Record<string, unknown>).id === h.issuer) {
    return "self-issued: its issuer is this motebit itself";
  }
  return null;
}

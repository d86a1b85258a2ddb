// The fleet's list: one row per provisioned name, in one directory object. It answers the operator's list and get
// and decides "the same name again is 409"; each motebit's own object stays the authority on whether it exists
// (a request to /m/<name>/… never consults the directory, so the list is not on the hot path).
import type { SqlPort } from "../ports.js";
import { migrate, type StoreSchema } from "../storage/migrations.js";

export interface FleetEntry {
  name: string;
  /** "provisioning" from reservation until the object has made its key; then "ready". */
  status: "provisioning" | "ready";
  motebit_id: string | null;
  public_key: string | null;
  display_name: string | null;
  created_at: number;
}

export interface FleetPage {
  motebits: FleetEntry[];
  /** Pass as `after` for the next page; null on the last one. */
  next: string | null;
}

export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 1000;

const DIRECTORY_SCHEMA: StoreSchema = {
  store: "fleet_directory",
  steps: [
    (sql) =>
      void sql.run(
        "CREATE TABLE IF NOT EXISTS fleet_directory (name TEXT PRIMARY KEY, status TEXT NOT NULL, motebit_id TEXT, public_key TEXT, display_name TEXT, created_at INTEGER NOT NULL)",
      ),
  ],
};

function hasTable(sql: SqlPort): boolean {
  return sql.all<{ n: number }>("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table' AND name = 'fleet_directory'")[0].n > 0;
}

/** Claims `name`; false when it is taken (provisioning or ready). */
export function reserveName(sql: SqlPort, name: string, displayName: string | null, now: number): boolean {
  migrate(sql, DIRECTORY_SCHEMA);
  return sql.run("INSERT OR IGNORE INTO fleet_directory (name, status, display_name, created_at) VALUES (?, 'provisioning', ?, ?)", name, displayName, now).changes === 1;
}

export function completeEntry(sql: SqlPort, name: string, ids: { motebitId: string; publicKeyHex: string }): void {
  sql.run("UPDATE fleet_directory SET status = 'ready', motebit_id = ?, public_key = ? WHERE name = ?", ids.motebitId, ids.publicKeyHex, name);
}

export function removeEntry(sql: SqlPort, name: string): boolean {
  return hasTable(sql) && sql.run("DELETE FROM fleet_directory WHERE name = ?", name).changes === 1;
}

export function getEntry(sql: SqlPort, name: string): FleetEntry | null {
  if (!hasTable(sql)) return null;
  return sql.all<FleetEntry>("SELECT name, status, motebit_id, public_key, display_name, created_at FROM fleet_directory WHERE name = ?", name)[0] ?? null;
}

/** Keyset paging in name order: `after` is the last name of the previous page. */
export function listEntries(sql: SqlPort, o: { after: string | null; limit: number }): FleetPage {
  if (!hasTable(sql)) return { motebits: [], next: null };
  const rows = sql.all<FleetEntry>(
    "SELECT name, status, motebit_id, public_key, display_name, created_at FROM fleet_directory WHERE name > ? ORDER BY name LIMIT ?",
    o.after ?? "",
    o.limit + 1,
  );
  const more = rows.length > o.limit;
  const motebits = more ? rows.slice(0, o.limit) : rows;
  return { motebits, next: more ? motebits[motebits.length - 1].name : null };
}

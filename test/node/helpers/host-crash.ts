// A host killed mid-task, as the next host finds its rows: the leases of its runs held by an owner that is gone
// and already lapsed. The test's first host object is still in memory; its runs find their leases taken at the
// next renewal and stop without writing (what a real kill makes certain).
import type { SqlPort } from "../../../src/ports.js";

export function leasesLapse(sql: SqlPort): void {
  sql.run("UPDATE mcp_tasks SET lease_owner = 'a host that was killed', lease_expires = 0 WHERE lease_owner IS NOT NULL");
}

// The fleet directory's role in its Durable Object (one object, reached by a fixed name: worker/fleet-objects.ts):
// the list of names, claimed before a motebit is provisioned and completed after (src/fleet/directory.ts).
import { completeEntry, type FleetEntry, type FleetPage, getEntry, listEntries, removeEntry, reserveName, type SqlPort } from "../src/index.js";

export class FleetDirectory {
  constructor(private readonly sql: SqlPort) {}

  reserve(name: string, displayName: string | null): boolean {
    return reserveName(this.sql, name, displayName, Date.now());
  }

  complete(name: string, ids: { motebitId: string; publicKeyHex: string }): void {
    completeEntry(this.sql, name, ids);
  }

  remove(name: string): boolean {
    return removeEntry(this.sql, name);
  }

  get(name: string): FleetEntry | null {
    return getEntry(this.sql, name);
  }

  list(o: { after: string | null; limit: number }): FleetPage {
    return listEntries(this.sql, o);
  }
}

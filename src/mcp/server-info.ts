// Who this server says it is and what it offers: the same answer to a session's initialize and to server/discover.
// The version is the package's: bundlers (esbuild for both packages, wrangler for the Worker) inline this one field.
import { version } from "../../package.json";

export const SERVER_INFO = { name: "motebit", version };

export const SERVER_CAPABILITIES = {
  tools: { listChanged: false },
  resources: { subscribe: true, listChanged: false },
  prompts: { listChanged: false },
  logging: {},
  completions: {},
};

export function serverInstructions(motebitId: string, did: string): string {
  return (
    `This is motebit ${motebitId} (${did}). Results end with an identity tag; motebit_task returns ` +
    `ExecutionReceipts signed with its Ed25519 key. Call motebit_tools to see what you may use.`
  );
}

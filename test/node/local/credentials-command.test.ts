// The owner gives the motebit a credential with `motebit-local credentials add` (owner-only: it needs the data
// dir), and motebit_credentials presents it from then on. A credential that does not verify is refused, exit 1.
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import * as credentials from "../../../local-stdio/src/commands/credentials.js";
import { createSigner, publicKeyToDidKey, stripIdentityTag, verifyIdentityFile } from "../../../src/protocol/index.js";
import { issueCredential } from "../helpers/issue-credential.js";
import { callText, connectStdio, initMotebit, runCli, tempDir } from "./helpers/local-cli.js";

const tmp = tempDir();
afterAll(() => tmp.cleanup());

it("credentials add keeps a verified credential; serve then presents it; a forged one is refused", async () => {
  const identity = await initMotebit(tmp.dir, ["--type", "service", "--name", "credentialed"]);
  const did = publicKeyToDidKey((await verifyIdentityFile(readFileSync(identity, "utf8"))).publicKeyHex!);
  const first = await connectStdio(["--identity", identity]);
  await first.close();

  const issuer = await createSigner("44".repeat(32));
  const vc = await issueCredential(issuer, did);
  const file = join(tmp.dir, "vc.json");
  writeFileSync(file, JSON.stringify(vc));
  const added = await runCli(["credentials", "add", file, "--identity", identity]);
  expect(added.code, added.stderr).toBe(0);
  expect(JSON.parse(added.stdout)).toMatchObject({ id: expect.stringMatching(/^urn:sha256:[0-9a-f]{64}$/), added: true });

  const forged = join(tmp.dir, "forged.json");
  writeFileSync(forged, JSON.stringify({ ...vc, credentialSubject: { id: did, tasks_completed: 1_000_000 } }));
  const refused = await runCli(["credentials", "add", forged, "--identity", identity]);
  expect(refused.code).toBe(1);
  expect(refused.stderr).toContain("credential refused: the issuer's proof does not verify");

  const listed = await runCli(["credentials", "list", "--identity", identity]);
  expect(JSON.parse(listed.stdout).map((c: { credential: unknown }) => c.credential)).toEqual([vc]);

  const s = await connectStdio(["--identity", identity]);
  try {
    const vp = JSON.parse(stripIdentityTag((await callText(s.client, "motebit_credentials")).text));
    expect(vp.holder).toBe(did);
    expect(vp.verifiableCredential).toEqual([vc]);
  } finally {
    await s.close();
  }
});

it("--help names every flag the command accepts", () => {
  for (const f of Object.keys(credentials.SPEC)) expect(credentials.command.help).toContain(`--${f}`);
});

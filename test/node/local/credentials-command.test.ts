// The owner gives the motebit a credential with `motebit-local credentials add` (owner-only: it needs the data
// dir), and motebit_credentials presents it from then on. A credential that does not verify is refused, exit 1;
// `credentials list` says for each whether it is presented, and why not (not yet valid, self-issued).
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

  // Held but not presented, each with the reason list gives: not yet valid, and issued by the motebit to itself.
  const notYet = await issueCredential(issuer, did, { validFrom: "2999-01-01T00:00:00Z", credentialSubject: { id: did, n: 2 } });
  const self = await issueCredential(await createSigner(readFileSync(join(tmp.dir, "motebit.key"), "utf8").trim()), did, { credentialSubject: { id: did, n: 3 } });
  for (const [name, c] of [["not-yet.json", notYet], ["self.json", self]] as const) {
    writeFileSync(join(tmp.dir, name), JSON.stringify(c));
    const r = await runCli(["credentials", "add", join(tmp.dir, name), "--identity", identity]);
    expect(r.code, r.stderr).toBe(0);
  }

  const listed = await runCli(["credentials", "list", "--identity", identity]);
  expect(JSON.parse(listed.stdout).map((c: Record<string, unknown>) => ({ presented: c.presented, not_presented: c.not_presented, credential: c.credential }))).toEqual([
    { presented: true, not_presented: undefined, credential: vc },
    { presented: false, not_presented: "not yet valid: validFrom 2999-01-01T00:00:00Z", credential: notYet },
    { presented: false, not_presented: "self-issued: its issuer is this motebit itself", credential: self },
  ]);

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

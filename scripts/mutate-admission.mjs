// Mutation check of the admission rule (issue #40): flips each rule of src/policy/admission/ in turn, runs the
// admission tests against the mutant, and prints which mutants the tests killed. Every mutant must be killed; the
// exit code is 1 when one survives. The files are restored whatever happens.
// Usage: node scripts/mutate-admission.mjs   (Node 22; runs two vitest files per mutant, about 15 s each)
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";

const DIR = "src/policy/admission";
const TESTS = ["test/node/policy/admission-decisions.test.ts", "test/node/policy/admission-every-path.test.ts"];

/** [file, rule, what is replaced, by what]: each a rule turned off, widened or narrowed. */
const MUTANTS = [
  ["admit.ts", "audience first", "if (!admits(tool.audience, principal.kind))", "if (false)"],
  ["admit.ts", "concluding only for a tool that signs", "a.concluding === true && tool.signsEveryOutcome === true", "a.concluding === true"],
  ["admit.ts", "concluding call runs", "if (a.concluding === true && tool.signsEveryOutcome === true) return ALLOW;", ""],
  ["admit.ts", "stop refuses", "if (a.stop != null)", "if (false)"],
  ["admit.ts", "stop reaches a tool that signs", "tool.signsEveryOutcome === true ? ALLOW :", "false ? ALLOW :"],
  ["admit.ts", "delegated scope", "!scopeAllows(a.delegatedScope, tool.name)", "false"],
  ["admit.ts", "undeclared risk", "if (risk === null) return", "if (false) return"],
  ["admit.ts", "blocked caller", 'principal.trust === "blocked"', 'principal.trust === "nobody"'],
  ["admit.ts", "deny band boundary", "risk > governance.denyAbove", "risk >= governance.denyAbove"],
  ["admit.ts", "deny band", "if (risk > governance.denyAbove)", "if (false)"],
  ["admit.ts", "first contact", 'principal.trust === "first_contact"', "false"],
  ["admit.ts", "first contact R0 only", "if (risk !== 0)", "if (risk > 1)"],
  ["admit.ts", "approval band", "} else if (inApprovalBand(risk, governance)) {", "} else if (false) {"],
  ["admit.ts", "owner asked only when askable", "a.ownerCanBeAsked === true ?", "true ?"],
  ["admit.ts", "owner never refused in the band", 'if (principal.kind === "owner") return', 'if (principal.kind === "nobody") return'],
  ["admit.ts", "no band tool offered for a peer", 'principal.trust === "trusted" && a.moment !== "model-offer"', 'principal.trust === "trusted"'],
  ["admit.ts", "trusted peer runs the band", 'principal.trust === "trusted" && a.moment', 'false && a.moment'],
  ["admit.ts", "tool's own refusal after the owner's ask", 'if (band.outcome !== "ask_owner") return band;', "return band;"],
  ["admit.ts", "tool's own refusal", "const declared = tool.declaredRefusal?.() ?? null;", "const declared = null;"],
  ["admit.ts", "band: both thresholds", "risk <= governance.maxRiskAuto && risk <= governance.requireApprovalAbove", "risk <= governance.maxRiskAuto || risk <= governance.requireApprovalAbove"],
  ["admit.ts", "band: auto boundary", "risk <= governance.maxRiskAuto &&", "risk < governance.maxRiskAuto &&"],
  ["admit.ts", "band: approval boundary", "&& risk <= governance.requireApprovalAbove", "&& risk < governance.requireApprovalAbove"],
  ["admit.ts", "no scope takes in all", "scope === undefined || scopeAllows", "scope !== undefined || scopeAllows"],
  ["admit.ts", "ask_owner is no refusal", 'd.outcome === "allow" || d.outcome === "ask_owner"', 'd.outcome === "allow"'],
  ["admit.ts", "approval stays approval", 'd.outcome === "approval" ? "approval" : "deny"', '"deny"'],
  ["audience.ts", "audience of one kind", 'audience === "both" || audience === viewer', 'audience === "both"'],
  ["audience.ts", "audience admits all", 'return audience === "both" || audience === viewer;', "return true;"],
  ["audience.ts", "localOnly is the owner's", 'd.localOnly === true ? "owner" : "both"', '"both"'],
  ["run-now.ts", "attempt cap boundary", "attempt > maxAttempts", "attempt >= maxAttempts"],
  ["run-now.ts", "lost standing stops", "standing.ok ? null :", "true ? null :"],
];

function testsPass() {
  try {
    execFileSync("npx", ["vitest", "run", ...TESTS], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

const originals = new Map();
let survivors = 0;
try {
  for (const [file, rule, from, to] of MUTANTS) {
    const path = `${DIR}/${file}`;
    if (!originals.has(path)) originals.set(path, readFileSync(path, "utf8"));
    const text = originals.get(path);
    const at = text.indexOf(from);
    if (at < 0 || text.indexOf(from, at + 1) >= 0) throw new Error(`mutant "${rule}": its text is not found exactly once in ${path}`);
    writeFileSync(path, text.slice(0, at) + to + text.slice(at + from.length));
    const killed = !testsPass();
    writeFileSync(path, text);
    if (!killed) survivors++;
    console.log(`${killed ? "killed  " : "SURVIVED"}  ${file}: ${rule}`);
  }
} finally {
  for (const [path, text] of originals) writeFileSync(path, text);
}
console.log(`${MUTANTS.length - survivors} of ${MUTANTS.length} mutants killed`);
process.exit(survivors === 0 ? 0 : 1);

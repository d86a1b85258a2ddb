// What a model-formed memory must never hold: credentials. Heuristic and deliberately eager — a false alarm
// loses one fact the owner can still store by hand; a miss would keep a secret and later send it to a provider.

const PATTERNS: RegExp[] = [
  /-----BEGIN [A-Z ]*PRIVATE KEY-----/,
  /\b(?:sk|pk|rk)-[A-Za-z0-9_-]{16,}/, // Anthropic, OpenAI, Stripe style keys
  /\b(?:ghp|gho|ghs|ghu|github_pat|xox[abpors]|glpat)[-_][A-Za-z0-9_-]{16,}/, // GitHub, Slack, GitLab tokens
  /\bAKIA[0-9A-Z]{16}\b/, // AWS access key id
  /\beyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\./, // a JWT
  /\b(?:password|passwd|passphrase|pin|api[ _-]?key|secret|token|private key|seed)\b\s*(?:is|=|:)\s*\S+/i,
  /\b[0-9a-f]{64}\b/i, // a 32-byte hex secret (a motebit seed looks like this)
];

export function looksSecret(text: string): boolean {
  return PATTERNS.some((p) => p.test(text));
}

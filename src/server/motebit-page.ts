// The motebit's page at its root: who it is, its governance, its tools as an anonymous caller sees them, how to
// connect, its transparency log's tree head (fetched by the page's script from <base>/log/head; "no log yet" when
// that does not answer), and a receipt verifier that runs in the browser (motebit-page-script.ts). Everything but the tree
// head and the verifier reads without script. No third-party asset; the one script and the one style are allowed
// by their hashes, and the script may fetch only from this origin.
import { escapeHtml as e } from "../oauth/http/consent-page.js";
import type { OAuthUrls } from "../oauth/urls.js";
import { hexToBytes } from "../protocol/bytes.js";
import { sha256Hex } from "../protocol/sha256.js";
import { discoveryUrls, SERVED_REVISIONS } from "../discovery/documents.js";
import { PAGE_SCRIPT } from "./motebit-page-script.js";
import type { PublicFacts } from "../discovery/public-facts.js";

// Contrast: text #1d1d1f on #fff, links #0b57d0, ok #0a6b2d, bad #a1161b: each above 4.5:1 (WCAG 2.x AA).
const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:52rem;margin:2rem auto;padding:0 1rem;color:#1d1d1f;background:#fff}
a{color:#0b57d0}h1{font-size:1.5rem}h2{font-size:1.15rem;margin-top:2rem}dt{font-weight:600}dd{margin:0 0 .6rem}
code,pre,textarea{font:14px ui-monospace,monospace}code{background:#f2f2f5;border-radius:4px;padding:0 .2rem;word-break:break-all}
table{border-collapse:collapse;width:100%}th,td{text-align:left;border-bottom:1px solid #d0d0d7;padding:.3rem .4rem;vertical-align:top}
textarea{width:100%;min-height:9rem;box-sizing:border-box}button{font-size:1rem;padding:.4rem 1rem}
.drop{border:2px dashed #6e6e78;border-radius:6px;padding:.6rem}.ok{color:#0a6b2d}.bad{color:#a1161b}
#checks li{margin:.2rem 0}:focus-visible{outline:3px solid #0b57d0;outline-offset:2px}`;

const b64 = (hex: string) => btoa(String.fromCharCode(...hexToBytes(hex)));
const hashes = (async () => ({ script: b64(await sha256Hex(PAGE_SCRIPT)), style: b64(await sha256Hex(STYLE)) }))();

/** The key's fingerprint as shown to people: SHA-256 of the 32 raw key bytes, hex in groups of four. */
export async function keyFingerprint(publicKeyHex: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", hexToBytes(publicKeyHex, 32));
  const hex = [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
  return hex.match(/.{4}/g)!.join(" ");
}

export async function pageCsp(): Promise<string> {
  const h = await hashes;
  return `default-src 'none'; script-src 'sha256-${h.script}'; style-src 'sha256-${h.style}'; connect-src 'self'; img-src 'none'; form-action 'none'; frame-ancestors 'none'; base-uri 'none'`;
}

function toolRows(f: PublicFacts): string {
  if (f.tools.length === 0) return `<tr><td colspan="3">No tools.</td></tr>`;
  return f.tools
    .map((t) => {
      const refusal = (t as { _meta?: Record<string, string> })._meta?.["motebit/refusal"];
      const verdict = refusal === undefined ? "runs" : `refused: ${refusal}`;
      return `<tr><td><code>${e(t.name)}</code><br>${e(t.description.split("\n[Refused for you:")[0])}</td><td>${e(t.risk ?? "undeclared (always refused)")}</td><td>${e(verdict)}</td></tr>`;
    })
    .join("\n");
}

export async function motebitPage(f: PublicFacts, urls: OAuthUrls): Promise<Response> {
  const at = discoveryUrls(urls);
  const g = f.governance;
  const auth = [
    ...(f.auth.static_token ? ["a static bearer token the owner issued"] : []),
    "a motebit signed token from a key this motebit knows (docs/protocol.md)",
    `OAuth 2.1: protected resource metadata <a href="${e(urls.resourceMetadata)}">${e(urls.resourceMetadata)}</a>, authorization server metadata <a href="${e(urls.authorizationServerMetadata)}">${e(urls.authorizationServerMetadata)}</a>`,
  ];
  const body = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${e(f.name)} · motebit</title><style>${STYLE}</style></head>
<body><main id="motebit" data-public-key="${e(f.public_key)}" data-motebit-id="${e(f.motebit_id)}" data-log-head="${e(at.logHead)}" data-log-consistency="${e(`${urls.issuer}/log/consistency`)}">
<h1>${e(f.name)}</h1>
<p>A motebit: an AI agent with its own Ed25519 key. Every task it runs ends in a receipt signed with that key.</p>
<dl>
<dt>Motebit id</dt><dd><code>${e(f.motebit_id)}</code></dd>
<dt>did:key</dt><dd><code>${e(f.did)}</code></dd>
<dt>Public key</dt><dd><code>${e(f.public_key)}</code></dd>
<dt>Key fingerprint (SHA-256 of the key)</dt><dd><code id="fingerprint">${e(await keyFingerprint(f.public_key))}</code></dd>
<dt>Type</dt><dd>${e(f.type)}</dd>
</dl>
<h2>Governance</h2>
<p>Tools of risk up to <strong>${e(g.max_risk_auto)}</strong> run without approval; above <strong>${e(g.require_approval_above)}</strong> they need the owner's approval; above <strong>${e(g.deny_above)}</strong> they are refused to everyone, the owner included.</p>
<h2>Tools</h2>
<table><caption>What a caller of the lowest trust (first contact) is shown by tools/list</caption>
<thead><tr><th scope="col">Tool</th><th scope="col">Risk</th><th scope="col">For a first-contact caller</th></tr></thead>
<tbody>
${toolRows(f)}
</tbody></table>
<h2>Connect</h2>
<dl>
<dt>MCP endpoint (Streamable HTTP)</dt><dd><code>${e(at.mcp)}</code></dd>
<dt>MCP revisions</dt><dd>${SERVED_REVISIONS.map((r) => `<code>${e(r)}</code>`).join(", ")}</dd>
<dt>Authentication</dt><dd><ul>${auth.map((a) => `<li>${a}</li>`).join("")}</ul></dd>
<dt>Signed discovery documents</dt><dd><a href="${e(at.serverCard)}">MCP server card</a> · <a href="${e(urls.issuer)}/server.json">server.json</a> · <a href="${e(at.agentCard)}">A2A agent card</a></dd>
</dl>
<h2>Transparency log</h2>
<p id="log-head">No log yet. (The page's script reads the signed tree head from <a href="${e(at.logHead)}">${e(at.logHead)}</a>.)</p>
<section id="verifier" aria-labelledby="verifier-title">
<h2 id="verifier-title">Check a receipt</h2>
<noscript><p>The verifier needs script. Without it: <code>motebit-local verify - --key ${e(f.public_key)}</code> checks the same things.</p></noscript>
<div class="drop" id="drop">
<p><label for="receipt">Paste a receipt, or the JSON-RPC reply or SSE stream a <code>motebit_task</code> call returned (or drop a file here)</label></p>
<textarea id="receipt" spellcheck="false" autocomplete="off"></textarea>
<p><label for="file">Or choose a file</label> <input type="file" id="file" accept=".json,.txt,application/json,text/plain"></p>
<p><button type="button" id="check">Check</button></p>
</div>
<div id="result" role="status" aria-live="polite"><p id="verdict"></p><ul id="checks"></ul></div>
</section>
</main>
<script>${PAGE_SCRIPT}</script>
</body></html>`;
  return new Response(body, {
    status: 200,
    headers: {
      "Content-Type": "text/html; charset=utf-8",
      "Content-Security-Policy": await pageCsp(),
      "X-Content-Type-Options": "nosniff",
      "X-Frame-Options": "DENY",
      "Referrer-Policy": "no-referrer",
      "Cache-Control": "public, max-age=60",
    },
  });
}

// The consent page /authorize shows the owner: plain HTML, no script, no third-party asset, a strict CSP. It tells
// who asks (client, redirect host), what it may do, the trust it gets, and the request code the owner approves with
// `motebit-local oauth approve`; the signed approval is pasted into the form, so no key ever reaches a browser.
// The client's own strings are shown through the same helpers as in the terminal (src/oauth/display.ts).
import { redirectTarget, scopesShown, visible } from "../display.js";

export interface ConsentView {
  clientName: string;
  clientId: string;
  redirectUri: string;
  /** The OAuth scopes asked for, canonical. */
  scope: string;
  motebitId: string;
  code: string;
  csrf: string;
  action: string;
  issuer: string;
  /** Set for a fleet motebit: its operator approves through the operator API. */
  fleetName: string | null;
  expiresInMinutes: number;
  /** Shown above the form when a pasted approval was refused. */
  problem?: string;
}

export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem;color:#1d1d1f}
h1{font-size:1.4rem}dt{font-weight:600}dd{margin:0 0 .6rem}code,pre{font:14px ui-monospace,monospace;background:#f2f2f5;border-radius:4px}
pre{padding:.6rem;white-space:pre-wrap;word-break:break-all}.code{font-size:2rem;letter-spacing:.2rem;font-weight:700}
textarea{width:100%;min-height:6rem;font:13px ui-monospace,monospace}button{font-size:1rem;padding:.5rem 1.2rem;margin-right:.6rem}
.problem{background:#fde8e8;border:1px solid #e0a0a0;padding:.6rem;border-radius:4px}`;

export function consentPage(v: ConsentView, nonce: string): string {
  const e = escapeHtml;
  // The page cannot know where the owner keeps the key or the CLI, so it says which paths to put in: a bare
  // `motebit.key` works only in the key's folder, and `npx motebit-local` (unpublished) only where it is installed.
  const command = v.fleetName === null
    ? `npx motebit-local oauth approve ${v.code} --url ${v.issuer} --key /absolute/path/to/motebit.key --trust verified`
    : `npx motebit-local fleet approve ${v.fleetName} ${v.code} --url ${new URL(v.issuer).origin} --token-file /absolute/path/to/operator.token --trust verified`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Approve ${e(visible(v.clientName))}</title><style nonce="${e(nonce)}">${STYLE}</style></head>
<body><main>
<h1>${e(visible(v.clientName))} asks to connect to this motebit</h1>
<dl>
<dt>Client</dt><dd>${e(visible(v.clientName))} <code>${e(visible(v.clientId))}</code></dd>
<dt>Sends you back to</dt><dd><code>${e(redirectTarget(v.redirectUri))}</code></dd>
<dt>Motebit</dt><dd><code>${e(v.motebitId)}</code></dd>
<dt>What it may do</dt><dd>Call this motebit's tools over MCP as the peer <code>oauth:${e(visible(v.clientId))}</code>, under the same policy,
rate limits, audit log and signed receipts as any other caller. Never as you: it cannot read your memories or act as the owner.
It keeps access until you revoke it (<code>motebit-local oauth revoke</code>).</dd>
<dt>Scopes it asks for</dt><dd><ul>${scopesShown(v.scope).map((s) => `<li><code>${e(s.scope)}</code>: ${e(s.meaning)}</li>`).join("")}</ul>
Anything else it would need later, it asks for again, and you approve again.</dd>
<dt>Trust it gets</dt><dd>The trust you choose when you approve: <code>first_contact</code> (risk-free tools only) unless you pass
<code>--trust verified</code>.</dd>
</dl>
<p>Request code</p><p class="code">${e(v.code)}</p>
<p>This request expires in ${v.expiresInMinutes} minutes. Only the owner can approve it: on the machine that holds the key, run</p>
<pre>${e(command)}</pre>
<p>with the path of your ${v.fleetName === null ? "motebit's key file" : "fleet's operator token"}, and paste the approval it prints below.
<code>npx motebit-local</code> runs inside the motebit-edge checkout or a project that installed it; anywhere else, use
<code>node &lt;checkout&gt;/local-stdio/bin/motebit-local.js</code> or <code>npx --package &lt;motebit-local tarball&gt; motebit-local</code>.</p>
${v.problem === undefined ? "" : `<p class="problem">${e(v.problem)}</p>`}
<form method="post" action="${e(v.action)}">
<input type="hidden" name="request" value="${e(v.code)}"><input type="hidden" name="csrf" value="${e(v.csrf)}">
<p><label for="approval">Approval</label><br><textarea id="approval" name="approval" autocomplete="off" spellcheck="false"></textarea></p>
<p><button type="submit" name="decision" value="approve">Approve</button><button type="submit" name="decision" value="deny">Deny</button></p>
</form>
</main></body></html>`;
}

/** No script at all; styles only with this response's nonce; the form may post here and its redirect go to the client. */
export function consentHeaders(nonce: string, redirectUri: string, cookie: string | null): Headers {
  let target = "";
  try {
    const u = new URL(redirectUri);
    target = u.host !== "" ? ` ${u.origin}` : ` ${u.protocol}`;
  } catch {
    /* an unparseable URI was refused before a page was shown */
  }
  const h = new Headers({
    "Content-Type": "text/html; charset=utf-8",
    "Content-Security-Policy": `default-src 'none'; style-src 'nonce-${nonce}'; form-action 'self'${target}; frame-ancestors 'none'; base-uri 'none'`,
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    // Not no-referrer: under it a browser posts the form with "Origin: null", which the Origin check must refuse.
    "Referrer-Policy": "same-origin",
    "Cache-Control": "no-store",
  });
  if (cookie !== null) h.append("Set-Cookie", cookie);
  return h;
}

/** A page for what cannot go back to the client (unknown client, unregistered redirect URI): OAuth says show, never redirect. */
export function errorPage(status: number, title: string, detail: string): Response {
  const nonce = crypto.randomUUID().replace(/-/g, "");
  const body = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title><style nonce="${nonce}">${STYLE}</style></head>
<body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(detail)}</p></main></body></html>`;
  const h = consentHeaders(nonce, "", null);
  return new Response(body, { status, headers: h });
}

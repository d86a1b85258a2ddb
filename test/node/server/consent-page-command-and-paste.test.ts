// The consent page's command works wherever the owner runs it (an absolute key path to fill in, and how to run the
// unpublished CLI outside this repository), and a paste it refuses is shown back, escaped, so the owner sees what
// went wrong (a whole JSON answer, an empty box, a line with control characters).
import { expect, it } from "vitest";
import { nodeApp } from "../helpers/node-app.js";
import { openConsent, REDIRECT_URI, submitConsent, type FetchFn } from "../../shared/oauth-driver.js";

const BASE = "https://motebit.test";

async function consent() {
  const h = await nodeApp({}, {});
  const fetchFn: FetchFn = async (url, init) => h.app.fetch(new Request(url, init));
  const reg = (await (await fetchFn(`${BASE}/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ client_name: "Paste test", redirect_uris: [REDIRECT_URI], token_endpoint_auth_method: "none" }),
  })).json()) as { client_id: string };
  const u = new URL(`${BASE}/authorize`);
  const q = { response_type: "code", client_id: reg.client_id, redirect_uri: REDIRECT_URI, code_challenge: "c".repeat(43), code_challenge_method: "S256", state: "s", resource: `${BASE}/mcp` };
  for (const [k, v] of Object.entries(q)) u.searchParams.set(k, v);
  return { fetchFn, page: await openConsent(fetchFn, u) };
}

it("the page's command takes an absolute key path and says how to run motebit-local outside this repository", async () => {
  const { page } = await consent();
  expect(page.html).toContain(`npx motebit-local oauth approve ${page.code} --url ${BASE} --key /absolute/path/to/motebit.key --trust verified`);
  expect(page.html).not.toContain("--key motebit.key");
  expect(page.html).toContain("node &lt;checkout&gt;/local-stdio/bin/motebit-local.js");
});

it("a refused paste is shown back: its start and length, control characters and bidi overrides escaped", async () => {
  const { fetchFn, page } = await consent();
  const json = await (await submitConsent(fetchFn, page, "approve", '{ "approval": "eyJhbGciOi…" }')).text();
  expect(json).toContain("Not approved: what was pasted (&#34;{ &#34;approval&#34;: &#34;eyJhbGciO…&#34;, 29 characters) is not an approval signed by this motebit&#39;s key.");
  const hostile = await (await submitConsent(fetchFn, page, "approve", "ok\u001b[2J\u202eevil")).text();
  expect(hostile).toContain("what was pasted (&#34;ok\\u{1b}[2J\\u{202e}evil&#34;, 11 characters)");
  expect(hostile).not.toContain("\u202e");
  const empty = await (await submitConsent(fetchFn, page, "approve", "  ")).text();
  expect(empty).toContain("Not approved: nothing was pasted.");
});

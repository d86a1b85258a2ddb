// The page's verifier, run by the browser (motebit-page.ts inlines it; its CSP allows it by hash). Plain ES2020 in a
// string, so no bundler rewrites it between the hash and the browser. It reads what `motebit-local verify -`
// reads (a receipt, a {receipt} wrapper, a tool result, a JSON-RPC reply or an SSE stream of them; the identity tag
// line dropped) and checks, with WebCrypto only: the Ed25519 signature over the receipt's canonical JSON (RFC 8785,
// without `signature`; docs/protocol.md), nested delegation receipts under their own keys, result_hash, the signer
// against this page's key, and, when the result's `_meta` carries an inclusion proof, the proof (RFC 9162 §2.1.3.2)
// against the signed tree head from <base>/log/head (read again, fresh, when the proof's tree is larger than the head
// the page holds), through the log's consistency proof from <base>/log/consistency (§2.1.4.2) when the head is newer.
export const PAGE_SCRIPT = String.raw`"use strict";
(function () {
  var main = document.getElementById("motebit");
  var PAGE_KEY = main.dataset.publicKey, PAGE_ID = main.dataset.motebitId;
  var HEAD_URL = main.dataset.logHead, CONSISTENCY_URL = main.dataset.logConsistency;
  var SUITE = "motebit-jcs-ed25519-b64-v1";
  var enc = new TextEncoder();
  var isObj = function (v) { return typeof v === "object" && v !== null && !Array.isArray(v); };

  function toHex(b) { return Array.from(new Uint8Array(b), function (x) { return x.toString(16).padStart(2, "0"); }).join(""); }
  function fromHex(h) {
    if (typeof h !== "string" || !/^([0-9a-f]{2})*$/.test(h)) throw new Error("not lowercase hex: " + String(h).slice(0, 80));
    var out = new Uint8Array(h.length / 2);
    for (var i = 0; i < out.length; i++) out[i] = parseInt(h.substr(i * 2, 2), 16);
    return out;
  }
  function fromB64url(s) {
    if (typeof s !== "string" || !/^[A-Za-z0-9_-]*$/.test(s)) throw new Error("signature is not base64url");
    var t = s.replace(/-/g, "+").replace(/_/g, "/");
    while (t.length % 4) t += "=";
    var bin = atob(t), out = new Uint8Array(bin.length);
    for (var i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
    return out;
  }
  // RFC 8785 for what JSON.parse returns: keys by UTF-16 code units (the default sort), numbers as JS writes them.
  function canon(v) {
    if (v === null) return "null";
    if (typeof v === "string" || typeof v === "boolean") return JSON.stringify(v);
    if (typeof v === "number") { if (!isFinite(v)) throw new Error("a number canonical JSON cannot hold"); return JSON.stringify(v); }
    if (Array.isArray(v)) return "[" + v.map(canon).join(",") + "]";
    return "{" + Object.keys(v).sort().map(function (k) { return JSON.stringify(k) + ":" + canon(v[k]); }).join(",") + "}";
  }
  async function sha256(bytes) { return new Uint8Array(await crypto.subtle.digest("SHA-256", bytes)); }
  function concat(parts) {
    var n = 0; parts.forEach(function (p) { n += p.length; });
    var out = new Uint8Array(n), o = 0;
    parts.forEach(function (p) { out.set(p, o); o += p.length; });
    return out;
  }
  async function ed25519Verify(pubHex, message, sig) {
    var key = await crypto.subtle.importKey("raw", fromHex(pubHex), { name: "Ed25519" }, false, ["verify"]);
    return crypto.subtle.verify({ name: "Ed25519" }, key, sig, message);
  }
  // Signed as receipts and tree heads are: the canonical JSON of the object without "signature".
  async function signedBy(o, pubHex) {
    var body = {};
    Object.keys(o).forEach(function (k) { if (k !== "signature") body[k] = o[k]; });
    return ed25519Verify(pubHex, enc.encode(canon(body)), fromB64url(o.signature));
  }

  // ---- what the input holds (as motebit-local verify - reads it) ----
  function stripTag(t) {
    var s = t.replace(/\s+$/, "");
    if (!s.endsWith("]")) return t;
    var start = s.indexOf("[motebit:", s.lastIndexOf("]", s.length - 2) + 1);
    if (start < 0) return t;
    return s.slice(0, start > 0 && s[start - 1] === "\n" ? start - 1 : start);
  }
  function sseEvents(text) {
    var first = text.replace(/^\s+/, "").split(/\r?\n/, 1)[0] || "";
    if (!/^(event|data|id|retry):|^:/.test(first)) return null;
    var events = [];
    text.split(/\r?\n\r?\n/).forEach(function (block) {
      var data = block.split(/\r?\n/).filter(function (l) { return l.startsWith("data:"); }).map(function (l) { return l.slice(5).replace(/^ /, ""); });
      if (data.length) events.push(data.join("\n"));
    });
    return events;
  }
  function parse(t) { try { return JSON.parse(t); } catch (_) { return undefined; } }
  function proofIn(meta) {
    if (!isObj(meta)) return null;
    for (var k in meta) {
      var p = meta[k];
      if (isObj(p) && Number.isInteger(p.leaf_index) && Number.isInteger(p.tree_size) && typeof p.root_hash === "string" && Array.isArray(p.audit_path)) return p;
    }
    return null;
  }
  function fromResult(r, found) {
    var blocks = Array.isArray(r.content) ? r.content : Array.isArray(r.contents) ? r.contents : [];
    var proof = proofIn(r._meta);
    blocks.forEach(function (b) {
      if (!isObj(b) || typeof b.text !== "string") return;
      var o = parse(stripTag(b.text).trim());
      if (isObj(o) && isObj(o.receipt) && !("task_id" in o)) o = o.receipt;
      if (isObj(o) && "task_id" in o) found.push({ receipt: o, proof: proof });
    });
  }
  function receiptsIn(text) {
    var found = [], events = sseEvents(text);
    var items = events !== null ? events.map(parse) : [parse(stripTag(text).trim())];
    if (events === null && items[0] === undefined) throw new Error("the input is not JSON, a JSON-RPC reply or an SSE stream");
    items.forEach(function (m) {
      if (Array.isArray(m)) { m.forEach(function (x) { if (isObj(x) && "task_id" in x) found.push({ receipt: x, proof: null }); }); return; }
      if (!isObj(m)) return;
      if (m.jsonrpc === "2.0") {
        if (isObj(m.error)) throw new Error("the reply is a JSON-RPC error: " + m.error.code + " " + m.error.message);
        if (isObj(m.result)) fromResult(m.result, found);
      } else if ("task_id" in m) found.push({ receipt: m, proof: null });
      else if (isObj(m.receipt)) found.push({ receipt: m.receipt, proof: proofIn(m._meta) });
      else fromResult(m, found);
    });
    if (!found.length) throw new Error("no receipt found in the input");
    return found;
  }

  // ---- the checks ----
  async function receiptSignature(r, path, depth, errors) {
    if (depth > 10) { errors.push(path + "nested deeper than 10 levels"); return; }
    if (!isObj(r)) { errors.push(path + "is not an object"); return; }
    if (r.suite !== SUITE) errors.push(path + "suite is " + JSON.stringify(r.suite) + ", not " + SUITE);
    try {
      if (!(await signedBy(r, r.public_key))) errors.push(path + "the signature does not verify under its public_key (the receipt was changed after signing, or signed by another key)");
    } catch (e) { errors.push(path + "cannot be checked: " + e.message); }
    var nested = Array.isArray(r.delegation_receipts) ? r.delegation_receipts : [];
    for (var i = 0; i < nested.length; i++) await receiptSignature(nested[i], (path || "") + "delegation_receipts[" + i + "]: ", depth + 1, errors);
  }
  function lsb(n) { return n % 2 === 1; }
  function half(n) { return Math.floor(n / 2); }
  async function node(l, r) { return sha256(concat([new Uint8Array([1]), l, r])); }
  // RFC 9162 §2.1.3.2
  async function rootFromInclusion(leafHash, index, size, path) {
    if (index >= size) throw new Error("leaf_index " + index + " is not below tree_size " + size);
    var fn = index, sn = size - 1, r = leafHash;
    for (var i = 0; i < path.length; i++) {
      var p = fromHex(path[i]);
      if (sn === 0) throw new Error("the audit path is longer than the tree allows");
      if (lsb(fn) || fn === sn) {
        r = await node(p, r);
        if (!lsb(fn)) while (!lsb(fn) && fn !== 0) { fn = half(fn); sn = half(sn); }
      } else r = await node(r, p);
      fn = half(fn); sn = half(sn);
    }
    if (sn !== 0) throw new Error("the audit path is shorter than the tree needs");
    return toHex(r);
  }
  // RFC 9162 §2.1.4.2
  async function consistent(first, second, firstHash, secondHash, path) {
    if (first === second) return path.length === 0 && firstHash === secondHash;
    if (first < 1 || first > second || path.length === 0 && (first & (first - 1)) !== 0) return false;
    var nodes = path.map(fromHex);
    if ((first & (first - 1)) === 0) nodes.unshift(fromHex(firstHash));
    var fn = first - 1, sn = second - 1;
    while (lsb(fn)) { fn = half(fn); sn = half(sn); }
    var fr = nodes[0], sr = nodes[0];
    for (var i = 1; i < nodes.length; i++) {
      var c = nodes[i];
      if (sn === 0) return false;
      if (lsb(fn) || fn === sn) {
        fr = await node(c, fr); sr = await node(c, sr);
        if (!lsb(fn)) while (!lsb(fn) && fn !== 0) { fn = half(fn); sn = half(sn); }
      } else sr = await node(sr, c);
      fn = half(fn); sn = half(sn);
    }
    return sn === 0 && toHex(fr) === firstHash && toHex(sr) === secondHash;
  }
  async function fetchJson(url) {
    var res = await fetch(url, { headers: { Accept: "application/json" }, cache: "no-store" });
    if (!res.ok) throw new Error(url + " answered " + res.status);
    return res.json();
  }
  // The head, if the log answers and its signature is this motebit's; null when there is no log.
  async function treeHead() {
    var head;
    try { head = await fetchJson(HEAD_URL); } catch (_) { return null; }
    if (!isObj(head) || !Number.isInteger(head.tree_size) || typeof head.root_hash !== "string") return { head: head, error: "the tree head is malformed" };
    if (head.public_key !== PAGE_KEY) return { head: head, error: "the tree head is signed by another key" };
    try { if (!(await signedBy(head, PAGE_KEY))) return { head: head, error: "the tree head's signature does not verify" }; }
    catch (e) { return { head: head, error: "the tree head cannot be checked: " + e.message }; }
    return { head: head, error: null };
  }
  // null: included in the head's tree; "consistent": included in an older tree the head extends; else the reason.
  // A proof for a tree larger than the head the page holds (the log grew since the page read it, e.g. by the very
  // task the reply is from) makes the page read the head again, fresh, before it concludes anything.
  async function inclusion(receipt, proof) {
    var leaf = await sha256(concat([new Uint8Array([0]), enc.encode(canon(receipt))]));
    var root = await rootFromInclusion(leaf, proof.leaf_index, proof.tree_size, proof.audit_path);
    if (root !== proof.root_hash) return "the inclusion proof does not lead to its root_hash: the receipt is not leaf " + proof.leaf_index + " of that tree";
    var head = await headPromise;
    if (head !== null && head.error === null && head.head.tree_size < proof.tree_size) {
      headPromise = treeHead();
      head = await headPromise;
      showHead(head);
    }
    if (head === null) return "there is no tree head to check the proof's root against (no log yet)";
    if (head.error !== null) return head.error;
    var h = head.head;
    if (h.tree_size === proof.tree_size) return h.root_hash === root ? null : "the proof's root is not the signed tree head's root for size " + h.tree_size;
    if (h.tree_size < proof.tree_size) return "the proof names a tree of " + proof.tree_size + " leaves; the log's signed head, read again, has only " + h.tree_size;
    var c;
    try { c = await fetchJson(CONSISTENCY_URL + "?first=" + proof.tree_size + "&second=" + h.tree_size); }
    catch (e) { return "the log's consistency proof could not be read: " + e.message; }
    if (!isObj(c) || !Array.isArray(c.consistency_path) || c.first !== proof.tree_size || c.second !== h.tree_size) return "the log's consistency answer is malformed";
    return (await consistent(proof.tree_size, h.tree_size, root, h.root_hash, c.consistency_path)) ? "consistent"
      : "the tree of the proof (" + proof.tree_size + " leaves) is not consistent with the signed head (" + h.tree_size + " leaves)";
  }

  async function checkOne(item) {
    var r = item.receipt, lines = [], ok = true;
    function line(pass, text) { lines.push({ pass: pass, text: text }); if (pass === false) ok = false; }
    var errors = [];
    await receiptSignature(r, "", 0, errors);
    line(errors.length === 0, errors.length === 0 ? "Signature: Ed25519 over the receipt's canonical JSON verifies under its public_key" + (Array.isArray(r.delegation_receipts) && r.delegation_receipts.length ? ", and each delegation receipt under its own" : "") : "Signature: " + errors.join("; "));
    if (typeof r.result === "string") {
      var hash = toHex(await sha256(enc.encode(r.result)));
      line(hash === r.result_hash, hash === r.result_hash ? "result_hash is the SHA-256 of result" : "result_hash is not the SHA-256 of result");
    } else line(false, "result is not a string");
    var mine = r.public_key === PAGE_KEY && r.motebit_id === PAGE_ID;
    line(mine, mine ? "Signer: this motebit (its key and motebit_id are this page's)" : "Signer: not this motebit (public_key " + String(r.public_key).slice(0, 16) + "…, motebit_id " + r.motebit_id + ")");
    if (item.proof === null) line(null, "Inclusion: not checked (the input carries no inclusion proof in its result's _meta)");
    else {
      var why;
      try { why = await inclusion(r, item.proof); } catch (e) { why = e.message; }
      var proven = why === null || why === "consistent";
      line(proven, !proven ? "Inclusion: " + why : "Inclusion: leaf " + item.proof.leaf_index + " of the signed tree head's log (RFC 9162)" +
        (why === "consistent" ? ": its proof is for the tree of " + item.proof.tree_size + " leaves, which the log's consistency proof joins to the head's" : ""));
    }
    return { ok: ok, lines: lines, task: r.task_id, status: r.status };
  }

  var verdictEl = document.getElementById("verdict"), checksEl = document.getElementById("checks");
  function showHead(h) {
    var el = document.getElementById("log-head");
    el.className = "";
    if (h === null) { el.textContent = "No log yet."; return; }
    if (h.error !== null) { el.textContent = "Tree head refused: " + h.error; el.className = "bad"; return; }
    el.textContent = "Signed tree head: " + h.head.tree_size + " receipts, root " + h.head.root_hash + (h.head.timestamp ? ", at " + new Date(h.head.timestamp).toISOString() : "") + " (signature checked against this page's key).";
  }
  var headPromise = treeHead();
  headPromise.then(showHead);
  async function run(text) {
    checksEl.textContent = "";
    verdictEl.className = "";
    verdictEl.textContent = "Checking…";
    try {
      var items = receiptsIn(text), all = true;
      for (var i = 0; i < items.length; i++) {
        var v = await checkOne(items[i]);
        all = all && v.ok;
        v.lines.forEach(function (l) {
          var li = document.createElement("li");
          li.className = l.pass === true ? "ok" : l.pass === false ? "bad" : "";
          li.textContent = (l.pass === true ? "✓ " : l.pass === false ? "✗ " : "– ") + (items.length > 1 ? "receipt " + (i + 1) + ": " : "") + l.text;
          checksEl.appendChild(li);
        });
      }
      verdictEl.className = all ? "ok" : "bad";
      verdictEl.textContent = all ? (items.length > 1 ? items.length + " valid receipts of this motebit" : "Valid receipt of this motebit (task " + items[0].receipt.task_id + ", " + items[0].receipt.status + ")") : "Not valid: " + Array.from(checksEl.querySelectorAll(".bad")).map(function (li) { return li.textContent.slice(2); }).join("; ");
    } catch (e) {
      verdictEl.className = "bad";
      verdictEl.textContent = "Not checked: " + e.message;
    }
  }
  var area = document.getElementById("receipt");
  document.getElementById("check").addEventListener("click", function () { run(area.value); });
  document.getElementById("file").addEventListener("change", function (ev) {
    var f = ev.target.files && ev.target.files[0];
    if (f) f.text().then(function (t) { area.value = t; run(t); });
  });
  var drop = document.getElementById("drop");
  drop.addEventListener("dragover", function (ev) { ev.preventDefault(); });
  drop.addEventListener("drop", function (ev) {
    ev.preventDefault();
    var f = ev.dataTransfer && ev.dataTransfer.files[0];
    if (f) f.text().then(function (t) { area.value = t; run(t); });
  });
})();
`;

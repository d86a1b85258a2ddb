import { ProtocolError } from "./errors.js";
import { echo } from "../bounded/echo.js";

/**
 * The YAML subset of identity files (docs/protocol.md §3). Emission: 2-space indent, strings as double-quoted JSON
 * strings, bare numbers/booleans/null, [] and {} for empties, `- "x"` scalar items, `- first_key: v` object
 * items. Reading accepts that plus plain scalars, comments, JSON flow collections and lists at the key's indent;
 * it refuses single-quoted strings, anchors, aliases, tags and block scalars with a clear error.
 */
export type YamlValue = string | number | boolean | null | YamlValue[] | { [key: string]: YamlValue };
export type YamlMap = { [key: string]: YamlValue };

interface Line {
  no: number; // 1-based line number in the YAML text
  indent: number;
  text: string; // content after the indent
}

/** Parse a YAML-subset mapping. `firstLineNo` shifts line numbers in errors (a frontmatter starts on line 2). */
export function parseYamlSubset(yaml: string, firstLineNo = 1): YamlMap {
  const lines: Line[] = [];
  yaml.split("\n").forEach((raw, i) => {
    const no = i + firstLineNo;
    const indent = raw.length - raw.replace(/^ +/, "").length;
    const text = raw.slice(indent);
    if (text.trim() === "" || text.startsWith("#")) return;
    if (text.startsWith("\t")) fail(no, "tabs are not allowed for indentation");
    if (indent === 0 && (text.startsWith("---") || text.startsWith("..."))) fail(no, "unexpected document marker");
    lines.push({ no, indent, text: text.trimEnd() });
  });
  if (lines.length === 0) return {};
  const p = new Parser(lines);
  if (isSeqItem(lines[0].text)) fail(lines[0].no, "the document must be a mapping, not a list");
  if (lines[0].indent !== 0) fail(lines[0].no, "the document must start at column 0");
  const doc = p.parseMap(0);
  if (p.i < lines.length) fail(lines[p.i].no, "bad indentation");
  return doc;
}

function fail(no: number, msg: string): never {
  throw new ProtocolError(`line ${no}: ${msg}`);
}

function isSeqItem(text: string): boolean {
  return text === "-" || text.startsWith("- ");
}

function setKey(obj: YamlMap, key: string, value: YamlValue): void {
  // defineProperty so a key named "__proto__" stays plain data
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}

class Parser {
  i = 0;
  constructor(private readonly lines: Line[]) {}

  parseBlock(indent: number): YamlValue {
    return isSeqItem(this.lines[this.i].text) ? this.parseSeq(indent) : this.parseMap(indent);
  }

  parseMap(indent: number): YamlMap {
    const obj: YamlMap = {};
    while (this.i < this.lines.length) {
      const line = this.lines[this.i];
      if (line.indent < indent) break;
      if (line.indent > indent) fail(line.no, "bad indentation");
      if (isSeqItem(line.text)) fail(line.no, "unexpected list item inside a mapping");
      const { key, rest } = splitKey(line);
      if (Object.prototype.hasOwnProperty.call(obj, key)) fail(line.no, `duplicate key "${echo(key)}"`);
      this.i++;
      let value: YamlValue;
      if (rest === "") {
        const next = this.lines[this.i];
        if (next && (next.indent > indent || (next.indent === indent && isSeqItem(next.text)))) value = this.parseBlock(next.indent);
        else value = null;
      } else {
        value = parseInline(rest, line.no);
      }
      setKey(obj, key, value);
    }
    return obj;
  }

  parseSeq(indent: number): YamlValue[] {
    const arr: YamlValue[] = [];
    while (this.i < this.lines.length) {
      const line = this.lines[this.i];
      if (line.indent < indent) break;
      if (line.indent > indent) fail(line.no, "bad indentation");
      if (!isSeqItem(line.text)) break;
      const after = line.text.slice(1);
      const body = after.replace(/^ +/, "");
      if (body === "" || body.startsWith("#")) {
        this.i++;
        const next = this.lines[this.i];
        arr.push(next && next.indent > indent ? this.parseBlock(next.indent) : null);
        continue;
      }
      const column = indent + 1 + (after.length - body.length);
      if (isSeqItem(body) || looksLikeKey(body)) {
        // `- key: v` / `- - x`: the item is a block starting at the column after the dash.
        this.lines[this.i] = { no: line.no, indent: column, text: body };
        arr.push(this.parseBlock(column));
      } else {
        this.i++;
        arr.push(parseInline(body, line.no));
      }
    }
    return arr;
  }
}

/** Index just past a double-quoted string starting at text[0], or -1 if unterminated. */
function endOfQuoted(text: string): number {
  for (let j = 1; j < text.length; j++) {
    const c = text[j];
    if (c === "\\") j++;
    else if (c === '"') return j + 1;
  }
  return -1;
}

function looksLikeKey(text: string): boolean {
  if (text.startsWith('"')) {
    const end = endOfQuoted(text);
    return end > 0 && /^\s*:(\s|$)/.test(text.slice(end));
  }
  if (/^['&*!|>[{]/.test(text)) return false;
  return /^[^#]*?:(\s|$)/.test(text);
}

function splitKey(line: Line): { key: string; rest: string } {
  const text = line.text;
  let key: string;
  let after: string;
  if (text.startsWith('"')) {
    const end = endOfQuoted(text);
    if (end < 0) fail(line.no, "unterminated double-quoted key");
    key = parseQuoted(text.slice(0, end), line.no);
    after = text.slice(end).replace(/^ +/, "");
    if (!after.startsWith(":")) fail(line.no, 'expected ":" after the key');
    after = after.slice(1);
  } else {
    refuseSpecial(text, line.no);
    const m = /:(\s|$)/.exec(text);
    if (!m || m.index === 0) fail(line.no, 'expected "key: value"');
    key = text.slice(0, m.index).trimEnd();
    if (key.startsWith("?")) fail(line.no, "complex keys (?) are not supported");
    after = text.slice(m.index + 1);
  }
  if (after !== "" && !/^\s/.test(after)) fail(line.no, 'expected a space after ":"');
  let rest = after.trim();
  if (rest.startsWith("#")) rest = "";
  return { key, rest };
}

function refuseSpecial(text: string, no: number): void {
  const c = text[0];
  if (c === "'") fail(no, "single-quoted strings are not supported; use double quotes");
  if (c === "&") fail(no, "anchors (&) are not supported");
  if (c === "*") fail(no, "aliases (*) are not supported");
  if (c === "!") fail(no, "tags (!) are not supported");
  if (c === "|" || c === ">") fail(no, "block scalars (| and >) are not supported");
  if (c === "%" || c === "@" || c === "`") fail(no, `"${c}" cannot start a plain value`);
  // Indicators YAML never lets a plain value start with (found by the yaml package beside it, as below).
  if (c === "]" || c === "}" || c === "," || c === "#") fail(no, `"${c}" cannot start a plain value`);
  if (/^[?:](\s|$)/.test(text)) fail(no, `"${c}" cannot start a plain value`);
  // YAML reads these as a list item, which cannot sit on its key's line (found by the yaml package beside it).
  if (isSeqItem(text) || text.startsWith("-\t")) fail(no, "a list cannot start on the same line as its key");
}

function parseQuoted(quoted: string, no: number): string {
  try {
    return JSON.parse(quoted) as string;
  } catch {
    fail(no, "invalid double-quoted string (only JSON string escapes are supported)");
  }
}

function stripComment(text: string, no: number): string {
  const t = text.replace(/^\s+/, "");
  if (t !== "" && !t.startsWith("#")) fail(no, `unexpected text after the value: ${JSON.stringify(t.slice(0, 40))}`);
  if (t !== "" && t.length === text.length) fail(no, "a comment needs a space before its #");
  return "";
}

const NUMBER_RE = /^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$/;

function parseInline(text: string, no: number): YamlValue {
  const c = text[0];
  if (c === '"') {
    const end = endOfQuoted(text);
    if (end < 0) fail(no, "unterminated double-quoted string");
    stripComment(text.slice(end), no);
    return parseQuoted(text.slice(0, end), no);
  }
  refuseSpecial(text, no);
  if (c === "[" || c === "{") {
    try {
      return JSON.parse(text) as YamlValue;
    } catch {
      fail(no, "flow collections must be [] or {} or written as JSON");
    }
  }
  const hash = text.search(/\s#/);
  const plain = (hash >= 0 ? text.slice(0, hash) : text).trimEnd();
  if (/:(\s|$)/.test(plain)) fail(no, "a mapping cannot start on the same line as its key");
  if (/^(null|Null|NULL|~)$/.test(plain)) return null;
  if (/^(true|True|TRUE)$/.test(plain)) return true;
  if (/^(false|False|FALSE)$/.test(plain)) return false;
  if (/^[-+]?\.(inf|Inf|INF|nan|NaN|NAN)$/.test(plain)) fail(no, "non-finite numbers are not supported");
  // YAML's core schema reads these as numbers, which a reader of this subset would take for text: refused instead.
  if (/^(0x[0-9a-fA-F]+|0o[0-7]+)$/.test(plain)) fail(no, "hexadecimal and octal numbers are not supported; write decimal or quote the text");
  if (NUMBER_RE.test(plain)) return Number(plain);
  return plain;
}

/** Emit a mapping in the identity-file style, keys in the object's own order, no trailing newline. */
export function emitYamlSubset(map: { [key: string]: unknown }): string {
  const lines: string[] = [];
  emitMap(map, 0, lines);
  return lines.join("\n");
}

function pad(n: number): string {
  return " ".repeat(n);
}

function definedKeys(obj: object): string[] {
  return Object.keys(obj).filter((k) => (obj as Record<string, unknown>)[k] !== undefined);
}

function scalar(v: unknown): string {
  if (typeof v === "string") return JSON.stringify(v);
  if (typeof v === "number") {
    if (!Number.isFinite(v)) throw new ProtocolError(`cannot emit the number ${v} in YAML`);
    return JSON.stringify(v);
  }
  if (typeof v === "boolean") return v ? "true" : "false";
  if (v === null) return "null";
  throw new ProtocolError(`cannot emit a ${typeof v} in YAML`);
}

function keyText(key: string): string {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(key) ? key : JSON.stringify(key);
}

/** Inline form of an empty collection or a scalar; null when the value needs a block. */
function inline(v: unknown): string | null {
  if (Array.isArray(v)) return v.length === 0 ? "[]" : null;
  if (v !== null && typeof v === "object") return definedKeys(v).length === 0 ? "{}" : null;
  return scalar(v);
}

function emitMap(obj: object, indent: number, lines: string[]): void {
  for (const key of definedKeys(obj)) {
    const v = (obj as Record<string, unknown>)[key];
    const head = pad(indent) + keyText(key) + ":";
    const one = inline(v);
    if (one !== null) lines.push(head + " " + one);
    else {
      lines.push(head);
      emitBlock(v, indent + 2, lines);
    }
  }
}

function emitBlock(v: unknown, indent: number, lines: string[]): void {
  if (Array.isArray(v)) emitSeq(v, indent, lines);
  else emitMap(v as object, indent, lines);
}

function emitSeq(arr: unknown[], indent: number, lines: string[]): void {
  for (const item of arr) {
    const one = inline(item);
    if (one !== null) {
      lines.push(pad(indent) + "- " + one);
      continue;
    }
    // Emit the item as a block two deeper, then put the dash in front of its first line.
    const sub: string[] = [];
    emitBlock(item, indent + 2, sub);
    sub[0] = pad(indent) + "- " + sub[0].slice(indent + 2);
    lines.push(...sub);
  }
}

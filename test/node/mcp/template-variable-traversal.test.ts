// A resource template variable is percent-decoded before a module's read() sees it, and after decoding it may never
// carry a path separator, NUL or a "." / ".." segment: such a URI is refused with -32602 naming the variable, and
// read() is never called with it.
import { describe, expect, it } from "vitest";
import { matchTemplate, UnsafeTemplateVariable } from "../../../src/mcp/uri-template.js";
import type { ServedResource } from "../../../src/tools/types.js";
import { makeMotebit, owner, peer } from "../helpers/motebit.js";

describe("template variables never carry a path", () => {
  it("matchTemplate decodes ordinary values and throws on separators, NUL and dot segments", () => {
    expect(matchTemplate("files://{name}", "files://a%20b.txt")).toEqual({ name: "a b.txt" });
    for (const raw of ["..%2F..%2Fetc%2Fpasswd", "%2e%2e", "..", ".", "%2E", "a%5Cb", "a%00b", "%2Fetc"]) {
      expect(() => matchTemplate("files://{name}", `files://${raw}`), raw).toThrow(UnsafeTemplateVariable);
    }
    // A literal "/" never matched a variable at all.
    expect(matchTemplate("files://{name}", "files://a/b")).toBeNull();
    // Dots inside a name are fine.
    expect(matchTemplate("files://{name}", "files://..hidden")).toEqual({ name: "..hidden" });
  });

  it("a broken percent-escape is refused, never handed on undecoded", () => {
    for (const raw of ["%2e%2e%", "%E0%A4%A", "a%zz", "%"]) {
      expect(() => matchTemplate("files://{name}", `files://${raw}`), raw).toThrow('variable "name" has a malformed percent-escape');
    }
  });

  it("a value encoded twice (or more) into a separator or dot segment is refused; one that only looks encoded is kept", () => {
    for (const raw of ["%252e%252e", "%252E", "..%252F..%252Fetc", "%25252e%25252e", "a%255cb", "%2500", "%252e%252e%252F"]) {
      expect(() => matchTemplate("files://{name}", `files://${raw}`), raw).toThrow(/is encoded more than once/);
    }
    expect(matchTemplate("files://{name}", "files://100%25")).toEqual({ name: "100%" });
    expect(matchTemplate("files://{name}", "files://50%2525%20off")).toEqual({ name: "50%25 off" });
    expect(matchTemplate("files://{name}", "files://%2541")).toEqual({ name: "%41" });
  });

  it("resources/read and resources/subscribe refuse the traversal with -32602 and read() never sees it", async () => {
    const seen: string[] = [];
    const files: ServedResource = {
      uriTemplate: "files://{name}",
      name: "file",
      read: (_uri, v) => (seen.push(v.name), { text: `file ${v.name}` }),
    };
    const h = await makeMotebit({ extras: { resources: [files] } });
    for (const p of [peer(), owner]) {
      const bad = await h.rpc(p, "resources/read", { uri: "files://..%2F..%2Fetc%2Fpasswd" });
      expect(bad.error?.code).toBe(-32602);
      expect(bad.error?.message).toBe('Invalid resource URI files://..%2F..%2Fetc%2Fpasswd: variable "name" decodes to a path separator, NUL or a "." / ".." segment');
      expect((await h.rpc(p, "resources/read", { uri: "files://%2e%2e" })).error?.code).toBe(-32602);
      const broken = await h.rpc(p, "resources/read", { uri: "files://%2e%2e%" });
      expect(broken.error?.code).toBe(-32602);
      expect(broken.error?.message).toBe('Invalid resource URI files://%2e%2e%: variable "name" has a malformed percent-escape');
      expect((await h.rpc(p, "resources/read", { uri: "files://%252e%252e" })).error?.code).toBe(-32602);
    }
    expect((await h.rpc(peer(), "resources/subscribe", { uri: "files://%2e%2e" })).error?.code).toBe(-32602);
    expect((await h.rpc(peer(), "resources/subscribe", { uri: "files://%2e%2e%" })).error?.code).toBe(-32602);
    expect((await h.rpc(peer(), "resources/read", { uri: "files://notes.txt" })).result.contents[0].text).toBe("file notes.txt");
    expect(seen).toEqual(["notes.txt"]);
  });
});

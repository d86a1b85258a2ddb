// A GET whose Host header and request target the test chooses (fetch allows neither): for what a server makes of a
// Host or an absolute-form target a caller made up.
import { request as httpRequest } from "node:http";

/** The answer's status and body; `target` is the request line's target (a path, or an absolute URL). */
export function rawGet(url: string, target: string, host: string): Promise<{ status: number; body: string }> {
  const u = new URL(url);
  return new Promise((done, fail) => {
    const req = httpRequest({ host: u.hostname, port: u.port, path: target, headers: { Host: host }, timeout: 5_000 }, (res) => {
      let body = "";
      res.on("data", (c) => (body += c));
      res.on("end", () => done({ status: res.statusCode ?? 0, body }));
    });
    req.on("timeout", () => req.destroy(new Error("no answer in 5 s")));
    req.on("error", fail);
    req.end();
  });
}

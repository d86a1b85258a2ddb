// A loopback proxy that adds `Authorization: Bearer <token>` to every request: the conformance suite has no
// option for an auth header, and a motebit lets nobody in without one. Bodies stream both ways (SSE).
import http from "node:http";

/** Listens on 127.0.0.1 (a free port) and forwards to `target` (an http://127.0.0.1:… origin). */
export function startAuthProxy(target, token) {
  const to = new URL(target);
  const server = http.createServer((req, res) => {
    const headers = { ...req.headers, authorization: `Bearer ${token}`, host: req.headers.host ?? to.host };
    const upstream = http.request(
      { hostname: to.hostname, port: to.port, path: req.url, method: req.method, headers },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.rawHeaders);
        up.pipe(res);
      },
    );
    upstream.on("error", (e) => {
      if (!res.headersSent) res.writeHead(502, { "content-type": "text/plain" });
      res.end(`proxy: ${e.message}`);
    });
    req.pipe(upstream);
    // The client went away (it closed an SSE stream): close ours upstream too.
    res.on("close", () => upstream.destroy());
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      resolve({ url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r()); }) });
    });
  });
}

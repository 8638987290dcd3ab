// serve.mjs - a static file server for the web build, on 127.0.0.1 only (node's own http:
// no packages). Used by tools/play.sh --web and the browser tests (tests/web).
//   node tools/web/serve.mjs DIR [PORT]     default 8080; 0, or 8080 taken: any free port
// Prints "serving DIR at http://127.0.0.1:PORT/" once listening. As a module, serve(dir,
// port) resolves to the http.Server.
import http from "node:http";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const TYPES = {
  ".html": "text/html; charset=utf-8", ".js": "text/javascript", ".mjs": "text/javascript",
  ".wasm": "application/wasm", ".data": "application/octet-stream", ".png": "image/png",
  ".json": "application/json", ".css": "text/css",
};

export function serve(dir, port = 0) {
  const root = path.resolve(dir);
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, "http://127.0.0.1");
    let file = path.join(root, decodeURIComponent(url.pathname));
    if (!file.startsWith(root)) { res.writeHead(403).end(); return; }
    if (url.pathname.endsWith("/")) file = path.join(file, "index.html");
    fs.stat(file, (err, st) => {
      if (err || !st.isFile()) { res.writeHead(404, { "content-type": "text/plain" }).end("not found\n"); return; }
      // No caching: a rebuilt game is what the next reload gets.
      res.writeHead(200, { "content-type": TYPES[path.extname(file)] || "application/octet-stream",
                           "content-length": st.size, "cache-control": "no-store" });
      fs.createReadStream(file).pipe(res);
    });
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => resolve(server));
  });
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const dir = process.argv[2] || ".";
  let server;
  try {
    server = await serve(dir, Number(process.argv[3] ?? 8080));
  } catch (e) {
    if (e.code !== "EADDRINUSE") throw e;
    server = await serve(dir, 0); // the port is taken: any free one
  }
  console.log(`serving ${dir} at http://127.0.0.1:${server.address().port}/ (Ctrl+C stops)`);
}

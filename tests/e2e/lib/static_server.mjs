// A tiny static file server for the client-only tests (the real server serves the files otherwise):
// a path without an extension gets index.html, like the real server.
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';

const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.css': 'text/css', '.svg': 'image/svg+xml' };

export function serveStatic(root) {
    const server = http.createServer((req, res) => {
        const url = new URL(req.url, 'http://x');
        let rel = url.pathname === '/' ? 'index.html' : url.pathname.slice(1);
        if (!path.extname(rel) && !rel.startsWith('api/')) {
            rel = 'index.html'; // client routes (/game/<id>, /learn/chessence), as the real server does
        }
        const file = path.resolve(root, rel);
        if (!file.startsWith(path.resolve(root)) || !fs.existsSync(file)) {
            res.writeHead(404).end();
            return;
        }
        res.writeHead(200, { 'content-type': TYPES[path.extname(file)] ?? 'application/octet-stream' });
        fs.createReadStream(file).pipe(res);
    });
    return new Promise((resolve) => server.listen(0, '127.0.0.1', () => {
        resolve({ url: `http://127.0.0.1:${server.address().port}`, close: () => server.close() });
    }));
}

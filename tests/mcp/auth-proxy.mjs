// A header-injecting HTTP proxy for the MCP conformance suite, which cannot
// send an Authorization header: every request is forwarded to UPSTREAM with
// "Authorization: Bearer $TOKEN" added, and everything else (Host and Origin
// included, for the DNS-rebinding checks) kept. No dependencies.
//
// Environment: UPSTREAM (http://127.0.0.1:PORT), TOKEN, LISTEN (port; 0 picks
// a free one). Prints "LISTENING <port>" once it accepts connections.
import http from 'node:http';

const upstream = new URL(process.env.UPSTREAM ?? 'http://127.0.0.1:8080');
const listen = Number(process.env.LISTEN ?? 0);
const token = process.env.TOKEN;
if (!token) {
  console.error('auth-proxy: set TOKEN');
  process.exit(2);
}

const server = http.createServer((req, res) => {
  const headers = { ...req.headers, authorization: `Bearer ${token}` };
  const up = http.request({ host: upstream.hostname, port: upstream.port, method: req.method,
    path: req.url, headers }, (ur) => {
    res.writeHead(ur.statusCode ?? 502, ur.headers);
    ur.pipe(res);
  });
  up.on('error', (e) => {
    res.writeHead(502, { 'content-type': 'text/plain' });
    res.end(`proxy error: ${e.message}`);
  });
  req.pipe(up);
});
server.listen(listen, '127.0.0.1', () => {
  console.log(`LISTENING ${server.address().port}`);
});
for (const sig of ['SIGTERM', 'SIGINT']) process.on(sig, () => process.exit(0));

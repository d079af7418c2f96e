// The baseline for a page read from disk: a bare node:http server that reads the file named in argv from disk for
// every request, as the site does for a page it does not hold in memory, and sends it as HTML.
import { readFile } from 'node:fs/promises';
import { createServer } from 'node:http';

const path = process.argv[2];
if (!path) throw new Error('usage: bare-file-server.mjs <file>');

const server = createServer((_req, res) => {
  readFile(path).then(
    (bytes) => {
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Content-Length': bytes.length });
      res.end(bytes);
    },
    () => {
      res.writeHead(500);
      res.end();
    },
  );
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') console.log(`listening on ${address.port}`);
});

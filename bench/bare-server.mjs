// The baseline: a bare node:http server that answers one fixed answer, read
// from the file named in argv, and nothing else. Plain JavaScript, as the
// site's server process is: Node loads no TypeScript stripper for either.
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';

const path = process.argv[2];
if (!path) throw new Error('usage: bare-server.mjs <answer.json>');
/** @type {{ status: number; headers: Record<string, string>; body: string }} */
const { status, headers, body } = JSON.parse(readFileSync(path, 'utf8'));
const bytes = Buffer.from(body, 'base64');

const server = createServer((_req, res) => {
  res.writeHead(status, { ...headers, 'Content-Length': bytes.length });
  res.end(bytes);
});
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') console.log(`listening on ${address.port}`);
});

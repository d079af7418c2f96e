import { createServer, type Server } from 'node:http';

/**
 * A Turnstile-compatible siteverify endpoint on loopback. It accepts the token
 * "good", rejects any other, and can be told to fail or to hang.
 */
export async function startFakeCaptcha(): Promise<{
  url: string;
  mode: { value: 'ok' | 'fail' | 'hang' };
  seen: URLSearchParams[];
  close(): Promise<void>;
}> {
  const mode: { value: 'ok' | 'fail' | 'hang' } = { value: 'ok' };
  const seen: URLSearchParams[] = [];
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const form = new URLSearchParams(body);
      seen.push(form);
      if (mode.value === 'hang') return;
      if (mode.value === 'fail') {
        res.writeHead(500).end('down');
        return;
      }
      res
        .writeHead(200, { 'Content-Type': 'application/json' })
        .end(JSON.stringify({ success: form.get('response') === 'good' && form.get('secret') === 'secret' }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/siteverify`,
    mode,
    seen,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => {
          resolve();
        });
      }),
  };
}

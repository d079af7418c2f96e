import { createServer, type Server } from 'node:http';
import { SMTPServer } from 'smtp-server';

/**
 * Where the site's notifications land in the tests: a real SMTP server on
 * loopback that keeps every message it accepts, and a webhook receiver that
 * keeps every JSON body POSTed to it.
 */

export interface SmtpSink {
  port: number;
  /** Each accepted message as received, its body's quoted-printable soft line breaks undone. */
  messages: string[];
  stop(): Promise<void>;
}

/** Starts an SMTP server on `port` (0: any free one), taking any sender and recipient without authentication. */
export async function startSmtp(port = 0, messages: string[] = []): Promise<SmtpSink> {
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, done) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      stream.on('end', () => {
        const split = raw.indexOf('\r\n\r\n');
        messages.push(raw.slice(0, split) + raw.slice(split).replace(/=\r\n/g, ''));
        done();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  // A sink a failed test never stopped (its site did not start) must not keep the test file's process from ending.
  server.server.unref();
  const address = server.server.address();
  return {
    port: typeof address === 'object' && address ? address.port : port,
    messages,
    stop: () =>
      new Promise((resolve) => {
        server.close(() => {
          resolve();
        });
      }),
  };
}

export interface WebhookSink {
  url: string;
  /** The JSON body of each POST answered 2xx, or of each POST received when the receiver hangs. */
  bodies: Record<string, unknown>[];
  /** The Authorization header of each body's POST, in the same order (undefined where there was none). */
  authorizations: (string | undefined)[];
  stop(): Promise<void>;
}

/**
 * Starts a webhook receiver on loopback: it answers 503 to the first
 * `failures` POSTs, then 204 to each, keeping its JSON body; or, with
 * `'hang'`, keeps each body and never answers (until it stops).
 */
export async function startWebhookReceiver(failures: number | 'hang' = 0): Promise<WebhookSink> {
  const bodies: Record<string, unknown>[] = [];
  const authorizations: (string | undefined)[] = [];
  let refused = 0;
  const server: Server = createServer((req, res) => {
    let raw = '';
    req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
    req.on('end', () => {
      if (failures !== 'hang' && refused < failures) {
        refused += 1;
        res.writeHead(503).end();
        return;
      }
      bodies.push(JSON.parse(raw) as Record<string, unknown>);
      authorizations.push(req.headers.authorization);
      if (failures !== 'hang') res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    bodies,
    authorizations,
    stop: () =>
      new Promise((resolve) => {
        server.close(() => {
          resolve();
        });
        server.closeAllConnections();
      }),
  };
}

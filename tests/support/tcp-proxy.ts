import { createConnection, createServer, type Socket } from 'node:net';

export interface TcpProxy {
  port: number;
  /** Closes the port and every connection through it, as a server that went away. */
  cut(): Promise<void>;
  /** Listens again on the same port. */
  restore(): Promise<void>;
}

/** A loopback TCP proxy to `targetPort`, to take a service away from a server under test and give it back. */
export async function startTcpProxy(targetPort: number): Promise<TcpProxy> {
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = createConnection({ host: '127.0.0.1', port: targetPort });
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('close', () => sockets.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  const listen = (port: number) =>
    new Promise<void>((resolve) => {
      server.listen(port, '127.0.0.1', resolve);
    });
  await listen(0);
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('the proxy has no port');
  return {
    port: address.port,
    cut: () =>
      new Promise((resolve) => {
        server.close(() => {
          resolve();
        });
        for (const socket of sockets) socket.destroy();
      }),
    restore: () => listen(address.port),
  };
}

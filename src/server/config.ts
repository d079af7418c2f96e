/**
 * The settings read from the environment at start-up (contract §2). Every
 * module asks here, so a default is written once.
 */
export function siteUrl(): string {
  const raw = process.env['SITE_URL'] ?? 'http://localhost:4321';
  return new URL(raw).origin;
}

export function listenPort(): number {
  const port = Number(process.env['PORT'] ?? 4321);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, not "${process.env['PORT']}"`);
  return port;
}

export function listenHost(): string {
  return process.env['HOST'] ?? 'localhost';
}

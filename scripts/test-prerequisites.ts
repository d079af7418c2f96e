// Run first by `npm test`: what the tests need besides the npm packages. The
// system Chromium is installed where we may (root with apt-get); otherwise,
// and for a Redis or a PostgreSQL that does not answer, stop at once and say how.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { connect } from 'node:net';

const chromium = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const redis = new URL(process.env['TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379');
const postgres = new URL(process.env['TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test');

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

function commandExists(command: string): boolean {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

let aptUpdated = false;

/**
 * Installs a Debian package where this process may (root, apt-get there, and
 * `allowed`), updating the package lists once; otherwise stops with `refusal`,
 * which says how to install it by hand.
 */
function aptInstall(pkg: string, why: string, refusal: string, allowed = true): void {
  if (!(allowed && process.getuid?.() === 0 && existsSync('/usr/bin/apt-get'))) fail(refusal);
  console.log(`Installing ${why} (apt-get install -y ${pkg})…`);
  if (!aptUpdated) execFileSync('apt-get', ['update', '-qq'], { stdio: 'inherit' });
  aptUpdated = true;
  execFileSync('apt-get', ['install', '-y', '-qq', pkg], { stdio: 'inherit', env: { ...process.env, DEBIAN_FRONTEND: 'noninteractive' } });
}

if (!existsSync(chromium)) {
  aptInstall(
    'chromium',
    'the system Chromium for the browser tests',
    `The browser tests need Chromium at ${chromium}, and it is not there.\n` +
      `Install it (Debian/Ubuntu: sudo apt-get install -y chromium), or point CHROMIUM_PATH at a Chromium or Chrome binary, then run npm test again.`,
    chromium === '/usr/bin/chromium',
  );
}

// The Nu Html Checker (the vnu-jar package) runs on Java.
if (!commandExists('java')) {
  aptInstall(
    'default-jre-headless',
    'Java for the Nu Html Checker',
    'The HTML conformance test needs Java for the Nu Html Checker, and there is none on the PATH.\n' +
      'Install it (Debian/Ubuntu: sudo apt-get install -y default-jre-headless), then run npm test again.',
  );
}

/** Whether something accepts connections at host:port within a second. */
function answers(host: string, port: number): Promise<boolean> {
  return new Promise<boolean>((resolve) => {
    const socket = connect({ host, port, timeout: 1000 }, () => {
      socket.end();
      resolve(true);
    });
    socket.on('error', () => {
      resolve(false);
    });
    socket.on('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}

if (!(await answers(redis.hostname, Number(redis.port || 6379)))) {
  fail(
    `The quota tests need a Redis at ${redis.host}, and nothing answers there.\n` +
      `Start one (Debian/Ubuntu: sudo apt-get install -y redis-server, then redis-server --daemonize yes), or set TEST_REDIS_URL, then run npm test again.`,
  );
}

if (!(await answers(postgres.hostname, Number(postgres.port || 5432)))) {
  fail(
    `The store tests need a PostgreSQL at ${postgres.host}, and nothing answers there.\n` +
      `Start one (Debian/Ubuntu: sudo apt-get install -y postgresql, then pg_ctlcluster <version> main start), or set TEST_DATABASE_URL ` +
      `(a role that may create databases), then run npm test again.`,
  );
}

// Run first by `npm test`: what the tests need besides the npm packages. The
// system Chromium and Java are installed, and the default Redis and PostgreSQL
// installed and started, where we may (root with apt-get); otherwise stop at
// once and say how.
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

/** Waits up to five seconds for host:port to accept connections; whether it does. */
async function comesUp(host: string, port: number): Promise<boolean> {
  for (let tries = 0; tries < 50; tries++) {
    if (await answers(host, port)) return true;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return false;
}

/** Whether the service the tests expect is the machine's default one (no URL set): only that one is started here. */
const defaultRedis = process.env['TEST_REDIS_URL'] === undefined;
const defaultPostgres = process.env['TEST_DATABASE_URL'] === undefined;

if (!(await answers(redis.hostname, Number(redis.port || 6379)))) {
  const refusal =
    `The quota tests need a Redis at ${redis.host}, and nothing answers there.\n` +
    `Start one (Debian/Ubuntu: sudo apt-get install -y redis-server, then redis-server --daemonize yes), or set TEST_REDIS_URL, then run npm test again.`;
  if (!commandExists('redis-server')) aptInstall('redis-server', 'Redis for the quota tests', refusal, defaultRedis);
  if (!defaultRedis || process.getuid?.() !== 0) fail(refusal);
  console.log('Starting Redis on 127.0.0.1:6379 for the tests (it keeps nothing on disk)…');
  execFileSync(
    'redis-server',
    ['--daemonize', 'yes', '--bind', '127.0.0.1', '-::1', '--port', '6379', '--save', '', '--appendonly', 'no'],
    {
      stdio: 'inherit',
      cwd: '/tmp',
    },
  );
  if (!(await comesUp('127.0.0.1', 6379))) fail(refusal);
}

/** Starts the newest Debian PostgreSQL cluster and lets the tests in: trust on loopback, a database `test`. */
async function startPostgres(refusal: string): Promise<void> {
  const versions = execFileSync('ls', ['/etc/postgresql'], { encoding: 'utf8' }).split('\n').filter(Boolean);
  const version = versions.sort((a, b) => Number(a) - Number(b)).at(-1);
  if (version === undefined) fail(refusal);
  console.log(`Starting PostgreSQL ${version} on 127.0.0.1:5432 for the tests…`);
  execFileSync('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'start'], { stdio: 'inherit' });
  if (!(await comesUp('127.0.0.1', 5432))) fail(refusal);
  const hba = `/etc/postgresql/${version}/main/pg_hba.conf`;
  // A fresh Debian cluster asks for passwords on TCP and has no `test` database: the tests need neither.
  execFileSync('sed', ['-i', '-E', 's/^(host\\s+all\\s+all\\s+(127\\.0\\.0\\.1\\/32|::1\\/128)\\s+)\\S+/\\1trust/', hba]);
  execFileSync('pg_ctlcluster', ['--skip-systemctl-redirect', version, 'main', 'reload'], { stdio: 'inherit' });
  try {
    execFileSync('su', ['postgres', '-c', 'createdb test'], { stdio: 'ignore' });
  } catch {
    // It is there already.
  }
}

if (!(await answers(postgres.hostname, Number(postgres.port || 5432)))) {
  const refusal =
    `The store tests need a PostgreSQL at ${postgres.host}, and nothing answers there.\n` +
    `Start one (Debian/Ubuntu: sudo apt-get install -y postgresql, then pg_ctlcluster <version> main start), or set TEST_DATABASE_URL ` +
    `(a role that may create databases), then run npm test again.`;
  if (!commandExists('pg_ctlcluster')) aptInstall('postgresql', 'PostgreSQL for the store tests', refusal, defaultPostgres);
  if (!defaultPostgres || process.getuid?.() !== 0) fail(refusal);
  await startPostgres(refusal);
}

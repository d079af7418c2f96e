// Run first by `npm test` (scripts/with-test-services.ts imports it): what the
// tests need besides the npm packages. The system Chromium and Java are
// installed, and where no Redis or PostgreSQL answers at the tests' default
// addresses, their servers' packages, for private instances
// (scripts/test-services.ts), where we may (root with apt-get); otherwise stop
// at once and say how.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { answers, DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL, postgresPrograms } from './test-services.ts';

const chromium = process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium';
const redis = new URL(process.env['TEST_REDIS_URL'] ?? DEFAULT_REDIS_URL);
const postgres = new URL(process.env['TEST_DATABASE_URL'] ?? DEFAULT_DATABASE_URL);

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

/** Whether the service the tests expect is the machine's default one (no URL set): only then may a private one stand in. */
const defaultRedis = process.env['TEST_REDIS_URL'] === undefined;
const defaultPostgres = process.env['TEST_DATABASE_URL'] === undefined;

if (!(await answers(redis.hostname, Number(redis.port || 6379)))) {
  const refusal =
    `The quota tests need a Redis at ${redis.host}, and nothing answers there.\n` +
    (defaultRedis
      ? 'npm test starts one of its own when redis-server is installed (Debian/Ubuntu: sudo apt-get install -y redis-server); '
      : "Start it, or unset TEST_REDIS_URL for a Redis of the tests' own; ") +
    'then run npm test again.';
  if (!defaultRedis) fail(refusal);
  if (!commandExists('redis-server')) aptInstall('redis-server', 'Redis for the quota tests', refusal);
}

if (!(await answers(postgres.hostname, Number(postgres.port || 5432)))) {
  const refusal =
    `The store tests need a PostgreSQL at ${postgres.host}, and nothing answers there.\n` +
    (defaultPostgres
      ? 'npm test starts one of its own when the PostgreSQL server is installed (Debian/Ubuntu: sudo apt-get install -y postgresql); '
      : "Start it, or unset TEST_DATABASE_URL for a PostgreSQL of the tests' own; ") +
    'then run npm test again.';
  if (!defaultPostgres) fail(refusal);
  if (postgresPrograms() === null) aptInstall('postgresql', 'PostgreSQL for the store tests', refusal);
}

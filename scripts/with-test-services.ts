// `npm test` and `npm run test:reliability`: runs the npm scripts named on
// the command line in order, stopping at the first that fails, with the
// Redis and PostgreSQL the tests use. A service given by TEST_REDIS_URL or
// TEST_DATABASE_URL, or answering at its default address, is used as it is;
// otherwise a private instance is started for the run (scripts/test-services.ts)
// and stopped after it, also when the run is interrupted.
import { spawn } from 'node:child_process';
import './test-prerequisites.ts';
import { answers, DEFAULT_DATABASE_URL, DEFAULT_REDIS_URL, privatePostgres, privateRedis, type PrivateService } from './test-services.ts';

const scripts = process.argv.slice(2);
const started: PrivateService[] = [];

/** The URL the tests use for a service: the one given, the default one where it answers, else a private instance's. */
async function serviceUrl(
  given: string | undefined,
  fallback: string,
  start: () => Promise<PrivateService>,
  name: string,
): Promise<string> {
  if (given !== undefined) return given;
  const url = new URL(fallback);
  if (await answers(url.hostname, Number(url.port))) return fallback;
  console.log(`Nothing answers at ${url.host}: starting a ${name} of the tests' own…`);
  const service = await start();
  started.push(service);
  console.log(`${name} for the tests at ${service.url}`);
  return service.url;
}

function run(script: string, env: NodeJS.ProcessEnv): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn('npm', ['run', script], { stdio: 'inherit', env });
    child.on('exit', (code, signal) => {
      resolve(code ?? (signal === null ? 1 : 128));
    });
  });
}

async function stopServices(): Promise<void> {
  await Promise.all(started.splice(0).map((service) => service.stop()));
}

for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    void stopServices().finally(() => process.exit(130));
  });

let code = 0;
try {
  const env = {
    ...process.env,
    TEST_REDIS_URL: await serviceUrl(process.env['TEST_REDIS_URL'], DEFAULT_REDIS_URL, privateRedis, 'Redis'),
    TEST_DATABASE_URL: await serviceUrl(process.env['TEST_DATABASE_URL'], DEFAULT_DATABASE_URL, privatePostgres, 'PostgreSQL'),
  };
  for (const script of scripts) {
    code = await run(script, env);
    if (code !== 0) break;
  }
} finally {
  await stopServices();
}
process.exitCode = code;

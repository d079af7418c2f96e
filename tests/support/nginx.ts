import { execFileSync, spawn } from 'node:child_process';
import { once } from 'node:events';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Nginx {
  url: string;
  /** Its access log so far: one line a request, `<seconds since 1970> <method> <status> <upstream addresses tried, comma-separated>`. */
  accessLog(): Promise<string>;
  stop(): Promise<void>;
}

/** Debian's package puts nginx in /usr/sbin, which is not on every PATH. */
function nginxBinary(): string {
  for (const candidate of ['nginx', '/usr/sbin/nginx']) {
    try {
      execFileSync(candidate, ['-v'], { stdio: 'ignore' });
      return candidate;
    } catch {
      // the next candidate
    }
  }
  throw new Error(
    'This test runs nginx in front of the site, and there is none on the PATH or at /usr/sbin/nginx.\n' +
      'Install it (Debian/Ubuntu: sudo apt-get install -y nginx; .ci/run does), then run it again.',
  );
}

/**
 * The configuration docs/deploying.md shows ("Behind a reverse proxy"), with an `upstream` of the instances:
 * loopback only, and everything nginx writes (pid, logs, temporary bodies)
 * in `dir`, so it needs nothing of the machine's own nginx.
 */
function configuration(port: number, upstreamPorts: number[]): string {
  return `worker_processes 1;
pid nginx.pid;
events { worker_connections 1024; }
http {
  log_format upstreams '$msec $request_method $status $upstream_addr';
  access_log access.log upstreams;
  client_body_temp_path client_body;
  proxy_temp_path proxy;
  fastcgi_temp_path fastcgi;
  uwsgi_temp_path uwsgi;
  scgi_temp_path scgi;
  upstream longhand {
${upstreamPorts.map((upstream) => `    server 127.0.0.1:${upstream};`).join('\n')}
    # Connections kept open to the instances, as deployments do: each then carries many readers in turn.
    keepalive 16;
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://longhand;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $remote_addr;
    }
  }
}
`;
}

/** Whether something accepts connections on the loopback port. */
function listens(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port }, () => {
      socket.end();
      resolve(true);
    });
    socket.on('error', () => {
      resolve(false);
    });
  });
}

/**
 * Starts nginx on `port` in front of the instances on `upstreamPorts` (which
 * need not listen yet), as a child of this process that `stop()` ends;
 * resolves once it listens, or rejects with its error log.
 */
export async function startNginx(port: number, upstreamPorts: number[]): Promise<Nginx> {
  const binary = nginxBinary();
  const dir = await mkdtemp(join(tmpdir(), 'longhand-nginx-'));
  // Started as root, its workers run as nobody: they must reach the temporary folders made inside.
  await chmod(dir, 0o755);
  await writeFile(join(dir, 'nginx.conf'), configuration(port, upstreamPorts));
  const errorLog = join(dir, 'error.log');
  const child = spawn(binary, ['-p', dir, '-c', join(dir, 'nginx.conf'), '-e', errorLog, '-g', 'daemon off;'], { stdio: 'ignore' });
  // Should the test process end without its after hooks, nginx ends with it.
  const endWithThisProcess = () => child.kill('SIGTERM');
  process.once('exit', endWithThisProcess);
  const stop = async () => {
    process.off('exit', endWithThisProcess);
    if (child.exitCode === null && child.signalCode === null) {
      const exited = once(child, 'exit');
      child.kill('SIGTERM');
      await exited;
    }
    await rm(dir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 10_000;
  while (!(await listens(port))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      const log = await readFile(errorLog, 'utf8').catch(() => '');
      await stop();
      throw new Error(`nginx did not listen on 127.0.0.1:${port}:\n${log}`);
    }
    await new Promise((done) => setTimeout(done, 20));
  }
  return { url: `http://127.0.0.1:${port}`, accessLog: () => readFile(join(dir, 'access.log'), 'utf8'), stop };
}

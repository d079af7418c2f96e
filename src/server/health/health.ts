/**
 * The health endpoints a proxy or an orchestrator polls (docs/deploying.md,
 * "Health, logs and metrics"): `/healthz` says the process serves, `/readyz` whether it
 * should be sent readers now. The front server answers both before anything
 * else (no page route can shadow them); this module only decides the responses.
 */

/** What a health endpoint answers: a status and a small JSON body. */
interface HealthResponse {
  status: number;
  body: string;
}

/** A dependency readiness asks: a name fit to publish ("store", "redis"; never an address) and its ping. */
export interface Dependency {
  name: string;
  ping: () => Promise<void>;
}

const HEALTH_PATHS = { live: '/healthz', ready: '/readyz' } as const;

/** How long a dependency may take to answer its ping before readiness counts it failed. */
const PING_TIMEOUT_MS = 1000;

const LIVE: HealthResponse = { status: 200, body: '{"status":"ok"}' };
const READY: HealthResponse = { status: 200, body: '{"status":"ready"}' };
const DRAINING: HealthResponse = { status: 503, body: '{"status":"draining"}' };

/** Whether `ping` resolves within `timeoutMs`; a late or failed ping is false, and its late rejection is swallowed. */
function answers(ping: () => Promise<void>, timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      resolve(false);
    }, timeoutMs);
    ping().then(
      () => {
        clearTimeout(timer);
        resolve(true);
      },
      () => {
        clearTimeout(timer);
        resolve(false);
      },
    );
  });
}

export interface Health {
  /** The answers by path, for the front server. */
  readonly probes: ReadonlyMap<string, () => Promise<HealthResponse>>;
  /** From now on `/readyz` answers 503 whatever the dependencies say: the server is stopping. */
  drain(): void;
}

/**
 * The health of a server that listens only once its build is loaded and its
 * store opened: `/healthz` is 200 as long as it answers at all; `/readyz` is
 * 200 when every dependency answers its ping within `timeoutMs`, else 503
 * naming those that did not, and 503 for good once `drain` was called.
 * Polls that come in while a check runs share it, so a busy poller costs one
 * ping a dependency at a time.
 */
export function health(dependencies: readonly Dependency[], timeoutMs = PING_TIMEOUT_MS): Health {
  let draining = false;
  let running: Promise<HealthResponse> | undefined;

  async function check(): Promise<HealthResponse> {
    const results = await Promise.all(dependencies.map((dependency) => answers(dependency.ping, timeoutMs)));
    if (draining) return DRAINING;
    const failed = dependencies.filter((_, index) => !results[index]).map((dependency) => dependency.name);
    return failed.length === 0 ? READY : { status: 503, body: JSON.stringify({ status: 'unavailable', failed }) };
  }

  function ready(): Promise<HealthResponse> {
    if (draining) return Promise.resolve(DRAINING);
    running ??= check().finally(() => {
      running = undefined;
    });
    return running;
  }

  return {
    probes: new Map([
      [HEALTH_PATHS.live, () => Promise.resolve(LIVE)],
      [HEALTH_PATHS.ready, ready],
    ]),
    drain() {
      draining = true;
    },
  };
}

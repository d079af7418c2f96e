import { settledWithinGrace } from '../store/outbox.ts';

/** Work done in passes beside the requests (the fediverse deliverer, Webmention's worker, the newsletter's sender), one pass at a time. */
export interface Polling {
  /** Runs a pass now rather than at the next poll (none when one is under way). */
  wake(): void;
  /** True once `stop` was called: a pass ends at its next item. */
  readonly stopped: boolean;
  /** Runs no more passes; resolves once the one under way has ended, `stopping` aborted after the grace. */
  stop(): Promise<void>;
}

/** Runs `pass` at once (once this has returned), every `everyMs` and when woken; a pass that fails is told to `failed`, and the next runs as usual. */
export function startPolling(
  pass: () => Promise<void>,
  everyMs: number,
  failed: (error: unknown) => void,
  stopping: AbortController,
): Polling {
  let running: Promise<void> | null = null;
  const polling = {
    stopped: false,
    wake: () => {
      if (polling.stopped) return;
      running ??= pass()
        .catch(failed)
        .finally(() => {
          running = null;
        });
    },
    stop: async () => {
      polling.stopped = true;
      clearInterval(timer);
      await settledWithinGrace(running ?? Promise.resolve(), stopping);
    },
  };
  const timer = setInterval(polling.wake, everyMs);
  // Once the caller holds what this returns: a pass may read `stopped` from its first line.
  queueMicrotask(polling.wake);
  return polling;
}

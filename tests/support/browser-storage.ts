import { afterEach, beforeEach, mock } from 'node:test';

/**
 * For each test of the calling suite: a `localStorage` of its own, empty, and
 * `Date` stopped at `now`, for the client modules that keep what a reader
 * wrote in the browser. What the storage holds is `stored` of the returned
 * object, the current test's.
 */
export function withBrowserStorage(now: number): { readonly stored: Map<string, string> } {
  let stored = new Map<string, string>();
  beforeEach(() => {
    mock.timers.enable({ apis: ['Date'], now });
    stored = new Map();
    Object.assign(globalThis, {
      localStorage: {
        getItem: (key: string) => stored.get(key) ?? null,
        setItem: (key: string, value: string) => stored.set(key, value),
      },
    });
  });
  afterEach(() => {
    mock.timers.reset();
    Reflect.deleteProperty(globalThis, 'localStorage');
  });
  return {
    get stored() {
      return stored;
    },
  };
}

/**
 * The build settings the prepared site is made with (tests/prepare-site.ts)
 * beyond the defaults: its pages carry the newsletter's subscribe form and
 * the fediverse follow line, for the tests that look at them.
 *
 * Most tests serve it with NEWSLETTER and FEDERATION off, or one of them
 * on: for npm start (scripts/start.ts) that is a build made with other
 * settings, to be made again, in place, under the tests that serve it. So a
 * test server's `npm start` is given the values the build was made with
 * (its check sees them, and a build it starts is made with them), and the
 * test's own in `TEST_SERVED_<name>`, which the server it execs takes back
 * (served-settings.ts, preloaded). The other build settings (SITE_URL, the
 * captcha's) are given as the test asks: a copy started with others is
 * built again, as a user's would be.
 */
export const PREPARED_BUILD: Readonly<Record<string, string>> = { NEWSLETTER: 'on', FEDERATION: 'on' };

/** Where a test server's own values of PREPARED_BUILD's settings wait for it (served-settings.ts). */
export const SERVED_PREFIX = 'TEST_SERVED_';

/** The preload that gives the server its own values back, for `node --import`. */
export const SERVED_SETTINGS_PRELOAD = new URL('served-settings.ts', import.meta.url).pathname;

/**
 * The environment of a test server's `npm start`, from the one the server
 * is to run with: PREPARED_BUILD's settings as the build has them, the
 * server's own values set aside (empty for unset).
 */
export function startEnvironment(served: Readonly<Record<string, string | undefined>>): Record<string, string | undefined> {
  const aside = Object.fromEntries(Object.keys(PREPARED_BUILD).map((name) => [`${SERVED_PREFIX}${name}`, served[name] ?? '']));
  return { ...served, ...PREPARED_BUILD, ...aside };
}

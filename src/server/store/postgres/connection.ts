import { userInfo } from 'node:os';
import type pg from 'pg';
import { settingsOf } from '../../settings/environment.ts';

/**
 * sslmode values whose meaning the pg driver takes from libpq only when asked
 * to (`uselibpqcompat`): by default it checks the certificate fully for each
 * of them and prints a warning at every start. `allow` tries a plain
 * connection first in libpq, which is what the driver's plain connection is;
 * `no-verify` is the driver's own name for `require`.
 */
const SSL_MODES: Record<string, string> = {
  disable: 'disable',
  allow: 'disable',
  prefer: 'prefer',
  require: 'require',
  'no-verify': 'require',
  'verify-ca': 'verify-ca',
  'verify-full': 'verify-full',
};

/** Whether `address` (the part before `?`) names a user before its host: `postgres://user[:password]@host…`. */
function namesUser(address: string): boolean {
  const userInfoPart = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)@/i.exec(address)?.[1] ?? '';
  return (userInfoPart.split(':')[0] ?? '') !== '';
}

/**
 * The settings every PostgreSQL connection of the site and of the owner's
 * data tool starts from, for `databaseUrl` (DATABASE_URL), completed as
 * libpq (psql, pg_dump) completes an address, so that one psql accepts
 * connects here too:
 * - the user: the address's, else `PGUSER`, else the operating system's user
 *   name. The driver's own last resort is `USER`, which a systemd service
 *   without `User=` and many containers do not set;
 * - the database: the address's, else `PGDATABASE`, else the user's name;
 *   the host, port and password: the address's, else `PGHOST`, `PGPORT`,
 *   `PGPASSWORD` (then `~/.pgpass`), else localhost and 5432 (the driver
 *   reads all of these itself);
 * - `sslmode`: the address's, else `PGSSLMODE`, with libpq's meaning:
 *   `require` encrypts without checking the certificate (as `verify-ca`
 *   with an `sslrootcert`), `verify-ca` checks it against `sslrootcert`,
 *   `verify-full` checks the host name too. `prefer` is taken as `require`:
 *   the driver cannot fall back to a plain connection as libpq does. Unset:
 *   a plain connection.
 */
export function connectionSettings(databaseUrl: string): pg.ClientConfig {
  const { PGUSER: user, PGSSLMODE: sslmodeSet } = settingsOf(['PGUSER', 'PGSSLMODE']);
  // A Unix socket folder and a database name ("/run/postgresql db"): no parameters to add, and no user to override.
  if (databaseUrl.startsWith('/')) return { connectionString: databaseUrl, ...(user ? {} : { user: userInfo().username }) };
  const cut = databaseUrl.indexOf('?');
  const address = cut === -1 ? databaseUrl : databaseUrl.slice(0, cut);
  const params = new URLSearchParams(cut === -1 ? '' : databaseUrl.slice(cut + 1));
  // The driver lets a `user` parameter stand for the address's: set only when neither it nor PGUSER names one.
  if (!params.get('user') && !namesUser(address) && !user) params.set('user', userInfo().username);
  const sslmode = params.get('sslmode') ?? sslmodeSet;
  const libpqMode = sslmode === undefined ? undefined : SSL_MODES[sslmode];
  if (libpqMode !== undefined) {
    params.set('sslmode', libpqMode);
    if (!params.has('uselibpqcompat')) params.set('uselibpqcompat', 'true');
  }
  const query = params.toString();
  return { connectionString: query === '' ? address : `${address}?${query}` };
}

import pg from 'pg';

/** The channel the `bans` table's triggers notify (migrations/1795651200000_ban-notices.sql). */
const CHANNEL = 'bans_changed';

/** How long a lost watch waits before it connects again. */
const RETRY_MS = 1000;

/**
 * How often the watch asks its connection whether it is alive, and how long
 * after the last answer it still trusts what it holds: a connection that dies
 * without a word (a dropped route) would otherwise keep old bans for hours.
 */
const HEARTBEAT_MS = 1000;
const TRUSTED_MS = 2500;

/**
 * The owner's bans, held in memory by each instance of the site and kept
 * current by PostgreSQL's notifications on a connection of its own, so that
 * the ban check of a write costs no round trip. A ban made anywhere (the
 * owner's data tool, another instance) reaches every instance as soon as its
 * transaction commits.
 *
 * While that connection is down or silent, and until it has read the bans
 * whole, `has` answers null and the caller asks the database itself. Once
 * back, it reads the bans whole again, so that nothing notified meanwhile is
 * missed.
 */
export class BanWatch {
  readonly #config: pg.ClientConfig;
  #client: pg.Client | null = null;
  #banned: Set<string> | null = null;
  /** Notices that came in while the bans were being read: applied on top of what was read. */
  #noticesWhileReading: string[] | null = null;
  #retry: NodeJS.Timeout | null = null;
  #heartbeat: NodeJS.Timeout | null = null;
  /** When the connection last answered (performance.now()). */
  #heardAt = 0;
  #closed = false;

  constructor(config: pg.ClientConfig) {
    this.#config = config;
  }

  /** Whether the owner banned this reader, or null when the watch does not know now. */
  has(readerHash: string): boolean | null {
    if (this.#banned === null || performance.now() - this.#heardAt > TRUSTED_MS) return null;
    return this.#banned.has(readerHash);
  }

  /** Connects, listens and reads the bans; on failure it tries again in the background. Never rejects. */
  async start(): Promise<void> {
    if (this.#closed) return;
    const client = new pg.Client({ ...this.#config, query_timeout: TRUSTED_MS });
    this.#client = client;
    client.on('error', () => {
      this.#lost(client);
    });
    client.on('end', () => {
      this.#lost(client);
    });
    client.on('notification', (notice) => {
      if (client === this.#client) this.#apply(notice.payload ?? '*');
    });
    try {
      await client.connect();
      await client.query(`LISTEN ${CHANNEL}`);
      await this.#readAll(client);
    } catch {
      this.#lost(client);
      return;
    }
    this.#heartbeat = setInterval(() => {
      client.query('SELECT 1').then(
        () => {
          this.#heardAt = performance.now();
        },
        () => {
          this.#lost(client);
        },
      );
    }, HEARTBEAT_MS);
    this.#heartbeat.unref();
  }

  /**
   * Resolves once every ban change committed before the call has reached this
   * watch: a round trip on its connection, before whose answer PostgreSQL
   * delivers what is pending. So the instance that bans sees its own ban at once.
   */
  async caughtUp(): Promise<void> {
    const client = this.#client;
    if (this.#banned === null || !client) return;
    await client.query('SELECT 1').catch(() => undefined);
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#retry) clearTimeout(this.#retry);
    const client = this.#client;
    this.#forget();
    await client?.end().catch(() => undefined);
  }

  async #readAll(client: pg.Client): Promise<void> {
    this.#noticesWhileReading = [];
    const { rows } = await client.query<{ reader_hash: string }>('SELECT reader_hash FROM bans');
    if (client !== this.#client) return;
    // Notices are delivered in commit order; applied again on top of a read that already holds some of them, each changes nothing.
    const notices = this.#noticesWhileReading;
    this.#noticesWhileReading = null;
    this.#banned = new Set(rows.map((row) => row.reader_hash));
    this.#heardAt = performance.now();
    for (const notice of notices) this.#apply(notice);
  }

  #apply(notice: string): void {
    if (this.#noticesWhileReading) {
      this.#noticesWhileReading.push(notice);
      return;
    }
    if (!this.#banned || !this.#client) return;
    if (notice.startsWith('+')) this.#banned.add(notice.slice(1));
    else if (notice.startsWith('-')) this.#banned.delete(notice.slice(1));
    else {
      // The bans changed in a way a notice does not spell out (an update, a TRUNCATE): read them whole again.
      this.#banned = null;
      const client = this.#client;
      this.#readAll(client).catch(() => {
        this.#lost(client);
      });
    }
  }

  #lost(client: pg.Client): void {
    if (client !== this.#client) return;
    this.#forget();
    client.end().catch(() => undefined);
    if (this.#closed) return;
    this.#retry = setTimeout(() => {
      this.#retry = null;
      void this.start();
    }, RETRY_MS);
    this.#retry.unref();
  }

  #forget(): void {
    if (this.#heartbeat) clearInterval(this.#heartbeat);
    this.#heartbeat = null;
    this.#client = null;
    this.#banned = null;
    this.#noticesWhileReading = null;
  }
}

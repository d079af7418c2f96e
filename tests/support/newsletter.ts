/** What the newsletter's tests share: its settings, a clock either side of an article's date, subscribers by the thousand, an SMTP sink that counts. */
import { SMTPServer } from 'smtp-server';
import { LANGUAGE_CODES, type LanguageCode } from '../../src/i18n/languages.ts';
import { openStore } from '../../src/server/store/open.ts';
import type { ExportRecord } from '../../src/server/store/types.ts';
import { PREPARED_SITE, startSite } from './site.ts';

// The fixture "next-century" (2099-01-01) is written in English and Arabic only: a French reader gets the original.
export const BEFORE_THE_DATE = '2098-12-31T23:58:00Z';
export const ON_THE_DATE = '2099-01-01T00:00:10Z';

/** The settings of a site whose newsletter is on, sending through the SMTP server on `smtpPort`, with its clock at `clock`. */
export function newsletterOn(smtpPort: number, store: Record<string, string>, clock: string, perMinute = 600): Record<string, string> {
  return {
    ...store,
    NEWSLETTER: 'on',
    SMTP_URL: `smtp://127.0.0.1:${smtpPort}`,
    NEWSLETTER_FROM: 'Longhand <news@example.test>',
    NEWSLETTER_RATE: String(perMinute),
    TEST_CLOCK: clock,
  };
}

/** The address of the i-th subscriber that addSubscribers puts in. */
function subscriberAddress(index: number): string {
  return `subscriber${index}@example.test`;
}

/** The addresses of the first `count` subscribers addSubscribers puts in. */
export function subscriberAddresses(count: number): string[] {
  return Array.from({ length: count }, (_, index) => subscriberAddress(index));
}

/**
 * Puts `count` confirmed subscribers straight into a store (DATA_DIR's, or
 * DATABASE_URL's), their languages in turn through all of the site's, as
 * an import would: quicker than as many subscriptions, and the same rows.
 * The embedded store must not be open in a server meanwhile.
 */
/** A confirmed subscriber's export record, subscribed and confirmed at `at`. */
export function confirmedSubscriber(id: string, email: string, lang: LanguageCode, at: string): ExportRecord {
  return { kind: 'subscriber', item: { id, email, lang, status: 'confirmed', createdAt: at, confirmedAt: at, confirmationSentAt: at } };
}

async function addSubscribers(store: { DATA_DIR?: string; DATABASE_URL?: string }, count: number): Promise<void> {
  const engine = await openStore({ dataDir: store.DATA_DIR ?? '', databaseUrl: store.DATABASE_URL, longStatements: true });
  const at = '2098-12-01T00:00:00.000Z';
  const records = Array.from({ length: count }, (_, index) =>
    confirmedSubscriber(`subscriber-${index}`, subscriberAddress(index), LANGUAGE_CODES[index % LANGUAGE_CODES.length] ?? 'en', at),
  );
  try {
    await engine.importRecords(records);
  } finally {
    await engine.close();
  }
}

/**
 * Readies a store for an article's date: a server started before it and
 * stopped records what is visible as the baseline, never sent; then
 * `count` confirmed subscribers are added (addSubscribers).
 */
export async function subscribersBeforeTheDate(
  smtpPort: number,
  store: { DATA_DIR?: string; DATABASE_URL?: string },
  count: number,
): Promise<void> {
  const before = await startSite(PREPARED_SITE, newsletterOn(smtpPort, store, BEFORE_THE_DATE));
  await before.stop();
  await addSubscribers(store, count);
}

export interface CountingSmtp {
  port: number;
  /** The recipient of each message accepted, in order. */
  recipients: string[];
  /** When each was accepted (epoch milliseconds), in the same order. */
  receivedAt: number[];
  /** Resolves once a session is held (holdAfter). */
  held: Promise<void>;
  stop(): Promise<void>;
}

/**
 * An SMTP server on loopback that keeps only who each message went to and
 * when. With `holdAfter`, the session of the message after that many
 * accepted is held at its RCPT TO, answered never: its sender waits in the
 * middle of a send, the message not accepted, as when a server is killed
 * mid-conversation. Every later session is answered.
 */
export async function startCountingSmtp({ holdAfter = Infinity }: { holdAfter?: number } = {}): Promise<CountingSmtp> {
  const recipients: string[] = [];
  const receivedAt: number[] = [];
  let holding = false;
  let markHeld = () => {};
  const held = new Promise<void>((resolve) => (markHeld = resolve));
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    disableReverseLookup: true,
    onRcptTo(_address, _session, callback) {
      if (!holding && recipients.length >= holdAfter) {
        holding = true;
        markHeld();
        return;
      }
      callback();
    },
    onData(stream, session, done) {
      stream.resume();
      stream.on('end', () => {
        recipients.push(session.envelope.rcptTo[0]?.address ?? '');
        receivedAt.push(Date.now());
        done();
      });
    },
  });
  // A sender killed mid-conversation resets its connection: no fault of the sink's.
  server.on('error', () => {});
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.server.address();
  return {
    port: typeof address === 'object' && address ? address.port : 0,
    recipients,
    receivedAt,
    held,
    stop: () =>
      new Promise((resolve) => {
        server.close(() => {
          resolve();
        });
      }),
  };
}

/** The addresses of `expected` that did not get exactly one message of those in `recipients`, each with how many it got. */
export function notOnce(recipients: readonly string[], expected: readonly string[]): string[] {
  const counts = new Map<string, number>();
  for (const recipient of recipients) counts.set(recipient, (counts.get(recipient) ?? 0) + 1);
  return expected.flatMap((address) => ((counts.get(address) ?? 0) === 1 ? [] : [`${address}: ${counts.get(address) ?? 0}`]));
}

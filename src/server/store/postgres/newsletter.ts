/** The newsletter on PostgreSQL: docs/architecture.md ("Appearances and the newsletter"). */
import type { LanguageCode } from '../../../i18n/languages.ts';
import { newSubscriber, subscriberAddress } from '../records.ts';
import type { NewsletterStore } from '../roles.ts';
import type { ArticleTranslation, IssueKey, NewsletterIssue, Subscriber } from '../types.ts';
import type { PostgresCore } from './engine.ts';
import { senderTurn } from './outbox.ts';
import {
  ISSUE_COLUMNS,
  issueKeyParams,
  issueOf,
  KEYED_ISSUES,
  QUEUE_ISSUES,
  SUBSCRIBER_COLUMNS,
  subscriberOf,
  subscriberValues,
  type IssueRow,
  type SubscriberRow,
} from './newsletter-rows.ts';

export class PostgresNewsletter implements NewsletterStore {
  readonly #core: PostgresCore;

  constructor(core: PostgresCore) {
    this.#core = core;
  }

  /**
   * One statement: the insert does nothing for a known address, and the
   * update then moves its confirmation's time only when the hour is over, so
   * that of two asking at once one alone is told to send.
   */
  async askSubscription(email: string, lang: LanguageCode, quietMs: number): Promise<{ subscriber: Subscriber; confirm: boolean }> {
    const added = newSubscriber(subscriberAddress(email), lang);
    const inserted = await this.#core.query<SubscriberRow>(
      `INSERT INTO subscribers (${SUBSCRIBER_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (email) DO NOTHING RETURNING ${SUBSCRIBER_COLUMNS}`,
      subscriberValues(added),
    );
    if (inserted.rows[0]) return { subscriber: subscriberOf(inserted.rows[0]), confirm: true };
    const renewed = await this.#core.query<SubscriberRow>(
      `UPDATE subscribers SET confirmation_sent_at = now() WHERE email = $1 AND confirmation_sent_at <= now() - $2 * interval '1 millisecond'
       RETURNING ${SUBSCRIBER_COLUMNS}`,
      [added.email, quietMs],
    );
    if (renewed.rows[0]) return { subscriber: subscriberOf(renewed.rows[0]), confirm: true };
    const { rows } = await this.#core.query<SubscriberRow>(`SELECT ${SUBSCRIBER_COLUMNS} FROM subscribers WHERE email = $1`, [added.email]);
    // Removed between the two statements: asked again, it is added.
    return rows[0] ? { subscriber: subscriberOf(rows[0]), confirm: false } : this.askSubscription(email, lang, quietMs);
  }

  async subscriber(id: string): Promise<Subscriber | null> {
    const { rows } = await this.#core.query<SubscriberRow>(`SELECT ${SUBSCRIBER_COLUMNS} FROM subscribers WHERE id = $1`, [id]);
    return rows[0] ? subscriberOf(rows[0]) : null;
  }

  async subscriberByAddress(email: string): Promise<Subscriber | null> {
    const { rows } = await this.#core.query<SubscriberRow>(`SELECT ${SUBSCRIBER_COLUMNS} FROM subscribers WHERE email = $1`, [
      subscriberAddress(email),
    ]);
    return rows[0] ? subscriberOf(rows[0]) : null;
  }

  async changeSubscriberLanguage(id: string, lang: LanguageCode): Promise<Subscriber | null> {
    const { rows } = await this.#core.query<SubscriberRow>(
      `UPDATE subscribers SET lang = $2 WHERE id = $1 RETURNING ${SUBSCRIBER_COLUMNS}`,
      [id, lang],
    );
    return rows[0] ? subscriberOf(rows[0]) : null;
  }

  async confirmSubscriber(id: string): Promise<Subscriber | null> {
    await this.#core.query(`UPDATE subscribers SET status = 'confirmed', confirmed_at = now() WHERE id = $1 AND status = 'pending'`, [id]);
    return this.subscriber(id);
  }

  removeSubscriber(id: string): Promise<boolean> {
    return this.#core.transaction(async (client) => {
      await client.query('DELETE FROM newsletter_issues WHERE subscriber_id = $1 AND sent_at IS NULL', [id]);
      const { rowCount } = await client.query('DELETE FROM subscribers WHERE id = $1', [id]);
      return rowCount === 1;
    });
  }

  forgetUnconfirmed(before: string): Promise<number> {
    return this.#core.transaction(async (client) => {
      const { rows } = await client.query<{ id: string }>(
        `DELETE FROM subscribers WHERE status = 'pending' AND created_at < $1 RETURNING id`,
        [before],
      );
      const ids = rows.map((row) => row.id);
      await client.query('DELETE FROM newsletter_issues WHERE subscriber_id = ANY($1) AND sent_at IS NULL', [ids]);
      return ids.length;
    });
  }

  async confirmedSubscribers(langs: readonly LanguageCode[]): Promise<Subscriber[]> {
    const { rows } = await this.#core.query<SubscriberRow>(
      `SELECT ${SUBSCRIBER_COLUMNS} FROM subscribers WHERE status = 'confirmed' AND lang = ANY($1) ORDER BY created_at, id`,
      [langs],
    );
    return rows.map(subscriberOf);
  }

  async queueIssues(appearance: ArticleTranslation, subscriberIds: readonly string[]): Promise<number> {
    if (subscriberIds.length === 0) return 0;
    const keys = subscriberIds.map((subscriberId) => ({ ...appearance, subscriberId }));
    const { rowCount } = await this.#core.query(QUEUE_ISSUES, issueKeyParams(keys));
    return rowCount ?? 0;
  }

  /** FOR UPDATE SKIP LOCKED and a lease, as the outbox claims (outbox.ts). */
  async claimIssues(limit: number, leaseMs: number): Promise<NewsletterIssue[]> {
    const { rows } = await this.#core.query<IssueRow>(
      `UPDATE newsletter_issues SET lease_until = now() + $2 * interval '1 millisecond'
       WHERE (slug, lang, subscriber_id) IN (
         SELECT slug, lang, subscriber_id FROM newsletter_issues
         WHERE sent_at IS NULL AND due_at <= now() AND (lease_until IS NULL OR lease_until <= now())
         ORDER BY due_at, created_at LIMIT $1 FOR UPDATE SKIP LOCKED)
       RETURNING ${ISSUE_COLUMNS}`,
      [limit, leaseMs],
    );
    return rows.map(issueOf).sort((a, b) => a.dueAt.localeCompare(b.dueAt) || a.createdAt.localeCompare(b.createdAt));
  }

  async issuesSent(issues: readonly IssueKey[]): Promise<void> {
    await this.#core.query(
      `UPDATE newsletter_issues SET sent_at = now(), lease_until = NULL WHERE ${KEYED_ISSUES}`,
      issueKeyParams(issues),
    );
  }

  async issuesFailed(issues: readonly IssueKey[], dueAt: string): Promise<void> {
    await this.#core.query(`UPDATE newsletter_issues SET attempts = attempts + 1, due_at = $4, lease_until = NULL WHERE ${KEYED_ISSUES}`, [
      ...issueKeyParams(issues),
      dueAt,
    ]);
  }

  async issuesReleased(issues: readonly IssueKey[]): Promise<void> {
    await this.#core.query(`UPDATE newsletter_issues SET lease_until = NULL WHERE ${KEYED_ISSUES}`, issueKeyParams(issues));
  }

  newsletterTurn(holder: string, leaseMs: number): Promise<boolean> {
    return this.#core.gate.run(() => senderTurn(this.#core.pool, 'newsletter_sender', holder, leaseMs));
  }

  async pruneIssues(sentBefore: string): Promise<number> {
    const { rowCount } = await this.#core.query('DELETE FROM newsletter_issues WHERE sent_at < $1', [sentBefore]);
    return rowCount ?? 0;
  }
}

import type { LanguageCode } from '../../../i18n/languages.ts';
import { now } from '../clock.ts';
import { issueKey, newIssues, newSubscriber, subscriberAddress } from '../records.ts';
import type { NewsletterStore } from '../roles.ts';
import type { ArticleTranslation, IssueKey, NewsletterIssue, Subscriber } from '../types.ts';
import type { EmbeddedCore } from './engine.ts';
import { Leases } from './leases.ts';
import type { NewsletterState } from './newsletter-state.ts';

/**
 * The newsletter on the embedded store. One process holds the store
 * (lock.ts): a check and the change it decides run with no await between,
 * leases are kept in memory, and the turn to send is always this process's.
 */
export class EmbeddedNewsletter implements NewsletterStore {
  readonly #core: EmbeddedCore;
  readonly #state: NewsletterState;
  readonly #leases = new Leases();

  constructor(core: EmbeddedCore) {
    this.#core = core;
    this.#state = core.state.newsletter;
  }

  async askSubscription(email: string, lang: LanguageCode, quietMs: number): Promise<{ subscriber: Subscriber; confirm: boolean }> {
    const known = this.#state.subscriberOf(subscriberAddress(email));
    if (known === null) {
      const added = newSubscriber(subscriberAddress(email), lang);
      await this.#core.commit({ op: 'subscriber', item: added });
      return { subscriber: added, confirm: true };
    }
    if (Date.parse(known.confirmationSentAt) + quietMs > Date.now()) return { subscriber: known, confirm: false };
    const again = { ...known, confirmationSentAt: now() };
    await this.#core.commit({ op: 'subscriber', item: again });
    return { subscriber: again, confirm: true };
  }

  subscriber(id: string): Promise<Subscriber | null> {
    return Promise.resolve(this.#state.subscribers.find(id));
  }

  subscriberByAddress(email: string): Promise<Subscriber | null> {
    return Promise.resolve(this.#state.subscriberOf(subscriberAddress(email)));
  }

  async changeSubscriberLanguage(id: string, lang: LanguageCode): Promise<Subscriber | null> {
    const known = this.#state.subscribers.find(id);
    if (known === null || known.lang === lang) return known;
    const changed: Subscriber = { ...known, lang };
    await this.#core.commit({ op: 'subscriber', item: changed });
    return changed;
  }

  async confirmSubscriber(id: string): Promise<Subscriber | null> {
    const known = this.#state.subscribers.find(id);
    if (known === null || known.status === 'confirmed') return known;
    const confirmed: Subscriber = { ...known, status: 'confirmed', confirmedAt: now() };
    await this.#core.commit({ op: 'subscriber', item: confirmed });
    return confirmed;
  }

  async removeSubscriber(id: string): Promise<boolean> {
    if (this.#state.subscribers.find(id) === null) return false;
    await this.#core.commit({ op: 'subscribersRemoved', ids: [id] });
    return true;
  }

  async forgetUnconfirmed(before: string): Promise<number> {
    const ids = this.#state.subscribers
      .oldestFirst()
      .filter((item) => item.status === 'pending' && item.createdAt < before)
      .map((item) => item.id);
    if (ids.length > 0) await this.#core.commit({ op: 'subscribersRemoved', ids });
    return ids.length;
  }

  confirmedSubscribers(langs: readonly LanguageCode[]): Promise<Subscriber[]> {
    return Promise.resolve(
      this.#state.subscribers.oldestFirst().filter((item) => item.status === 'confirmed' && langs.includes(item.lang)),
    );
  }

  async queueIssues(appearance: ArticleTranslation, subscriberIds: readonly string[]): Promise<number> {
    const items = newIssues(appearance, subscriberIds).filter(
      (issue) => this.#state.issues.find(issueKey(issue)) === null && this.#state.subscribers.find(issue.subscriberId) !== null,
    );
    if (items.length > 0) await this.#core.commit({ op: 'issuesQueued', items });
    return items.length;
  }

  claimIssues(limit: number, leaseMs: number): Promise<NewsletterIssue[]> {
    const { unsent, issues } = this.#state;
    return Promise.resolve(this.#leases.claim(unsent, (key) => issues.find(key), limit, leaseMs));
  }

  async issuesSent(issues: readonly IssueKey[]): Promise<void> {
    const keys = this.#settled(issues);
    if (keys.length > 0) await this.#core.commit({ op: 'issuesSent', keys, sentAt: now() });
  }

  async issuesFailed(issues: readonly IssueKey[], dueAt: string): Promise<void> {
    const keys = this.#settled(issues);
    if (keys.length > 0) await this.#core.commit({ op: 'issuesFailed', keys, dueAt });
  }

  issuesReleased(issues: readonly IssueKey[]): Promise<void> {
    this.#settled(issues);
    return Promise.resolve();
  }

  newsletterTurn(): Promise<boolean> {
    return Promise.resolve(true);
  }

  async pruneIssues(sentBefore: string): Promise<number> {
    const pruned = this.#state.sentBefore(sentBefore).length;
    if (pruned > 0) await this.#core.commit({ op: 'issuesPruned', sentBefore });
    return pruned;
  }

  /** Ends the leases of these issues; their keys. */
  #settled(issues: readonly IssueKey[]): string[] {
    const keys = issues.map(issueKey);
    this.#leases.end(keys);
    return keys;
  }
}

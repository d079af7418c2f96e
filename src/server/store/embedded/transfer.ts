import { now } from '../clock.ts';
import { appearanceKey, issueKey, deliveryKey, mentionKey } from '../records.ts';
import type { TransferStore } from '../roles.ts';
import type { ExportRecord, ImportCounts } from '../types.ts';
import type { JournalChange } from './documents.ts';
import type { EmbeddedCore } from './engine.ts';
import type { FollowerFile } from './followers.ts';
import { readSaltFile, writeSaltFile } from './salt-file.ts';
import { keepSecret, readSecret, secretNames } from './secret-file.ts';

/** How many writes an import leaves in flight before it waits for them. */
const IMPORT_WINDOW = 1000;

/** Export and import of the embedded store: its state read a thread at a time, an import written through its journal. */
export class EmbeddedTransfer implements TransferStore {
  readonly #core: EmbeddedCore;
  readonly #followers: FollowerFile;

  constructor(core: EmbeddedCore, followers: FollowerFile) {
    this.#core = core;
    this.#followers = followers;
  }

  async *exportRecords(): AsyncGenerator<ExportRecord> {
    const state = this.#core.state;
    const salt = await readSaltFile(this.#core.layout.salt);
    if (salt !== null) yield { kind: 'salt', salt };
    for (const name of await secretNames(this.#core.layout)) {
      const value = await readSecret(this.#core.layout, name);
      if (value !== null) yield { kind: 'secret', name, value };
    }
    for await (const thread of state.threads()) for (const comment of thread.comments()) yield { kind: 'comment', comment };
    // Every comment before the first vote: a vote on a comment is imported after it.
    for await (const thread of state.threads())
      for (const { commentId, voter, vote } of thread.votes()) yield { kind: 'vote', articleSlug: thread.slug, commentId, voter, vote };
    for await (const thread of state.threads())
      for (const reaction of thread.reactions()) yield { kind: 'reaction', item: { articleSlug: thread.slug, ...reaction } };
    for (const item of state.topicRequests.oldestFirst()) yield { kind: 'topicRequest', item };
    for (const item of state.bugReports.oldestFirst()) yield { kind: 'bugReport', item };
    for (const item of state.citySubmissions.oldestFirst()) yield { kind: 'citySubmission', item };
    for (const { readerHash, since } of state.bans.oldestFirst()) yield { kind: 'ban', readerHash, since };
    for (const spent of state.spentLinks.oldestFirst()) yield { kind: 'spentLink', ...spent };
    for (const item of this.#followers.all()) yield { kind: 'follower', item };
    for (const item of this.#followers.blocks()) yield { kind: 'instanceBlock', item };
    // Claimed or not: a lease is this process's, and ends with it.
    for (const entry of state.outbox.entries()) yield { kind: 'notification', entry };
    for (const item of state.newsletter.appearances.oldestFirst()) yield { kind: 'appearance', item };
    for (const item of state.newsletter.subscribers.oldestFirst()) yield { kind: 'subscriber', item };
    for (const item of state.newsletter.issues.oldestFirst()) yield { kind: 'newsletterIssue', item };
    for (const item of state.deliveries.deliveries.oldestFirst()) yield { kind: 'delivery', item };
    for (const item of state.mentions.mentions.oldestFirst()) yield { kind: 'mention', item };
  }

  async importRecords(records: AsyncIterable<ExportRecord> | Iterable<ExportRecord>): Promise<ImportCounts> {
    const counts: ImportCounts = { added: 0, skipped: 0 };
    let inFlight: Promise<void>[] = [];
    for await (const record of records) {
      const change = await this.#importChange(record);
      if (change === null) {
        counts.skipped += 1;
        continue;
      }
      counts.added += 1;
      if (change !== 'done') {
        // Committed before the next record is looked at: a reply finds its parent in memory.
        await this.#core.state.prepare(change);
        inFlight.push(this.#core.commit(change));
      }
      if (inFlight.length >= IMPORT_WINDOW) {
        await Promise.all(inFlight);
        inFlight = [];
      }
    }
    await Promise.all(inFlight);
    return counts;
  }

  /** The change that adds an imported record; null when it is there already, 'done' when it was kept otherwise (the salt, a secret, a follower, a block). */
  async #importChange(record: ExportRecord): Promise<JournalChange | 'done' | null> {
    const state = this.#core.state;
    switch (record.kind) {
      case 'salt':
        if ((await readSaltFile(this.#core.layout.salt)) !== null) return null;
        await writeSaltFile(this.#core.layout.salt, record.salt);
        return 'done';
      case 'secret':
        if ((await readSecret(this.#core.layout, record.name)) !== null) return null;
        await keepSecret(this.#core.layout, record.name, record.value);
        return 'done';
      case 'follower':
        if (this.#followers.find(record.item.lang, record.item.actorId)) return null;
        await this.#followers.put(record.item);
        return 'done';
      case 'instanceBlock':
        if (this.#followers.block(record.item.host)) return null;
        await this.#followers.putBlock(record.item);
        return 'done';
      case 'comment': {
        const { articleSlug, id, parentId, depth } = record.comment;
        const thread = await state.article(articleSlug);
        if (thread?.hasComment(id)) return null;
        const parentDepth = parentId === null ? 0 : thread?.comment(parentId)?.depth;
        if (parentDepth !== depth - 1) throw new Error(`Comment ${id} does not fit its thread: its parent is missing or not one level up`);
        // Scores come from the votes imported after it.
        return { op: 'comment', comment: { ...record.comment, score: 0 } };
      }
      case 'vote': {
        const { articleSlug, commentId, voter, vote } = record;
        const thread = await state.article(articleSlug);
        if (commentId !== null && !thread?.hasComment(commentId))
          throw new Error(`A vote is on comment ${commentId}, which is not in the import or the store`);
        return (thread?.voteOf(voter, commentId) ?? 0) !== 0 ? null : { op: 'vote', articleSlug, commentId, voter, vote };
      }
      case 'reaction': {
        const { articleSlug, kind, actorId, at } = record.item;
        return (await state.article(articleSlug))?.hasReaction(kind, actorId)
          ? null
          : { op: 'reaction', articleSlug, kind, actorId, at, on: true };
      }
      case 'topicRequest':
        return state.topicRequests.find(record.item.id) ? null : { op: 'topicRequest', item: record.item };
      case 'bugReport':
        return state.bugReports.find(record.item.id) ? null : { op: 'bugReport', item: record.item };
      case 'citySubmission':
        return state.citySubmissions.find(record.item.id) ? null : { op: 'citySubmission', item: record.item };
      case 'ban':
        return state.bans.find(record.readerHash) ? null : { op: 'ban', item: { readerHash: record.readerHash, since: record.since } };
      case 'spentLink': {
        const { link, expiresAt } = record;
        return state.spentLinks.find(link) ? null : { op: 'spendLink', item: { link, expiresAt }, at: now() };
      }
      case 'notification':
        return state.outbox.has(record.entry.id) ? null : { op: 'outboxAdded', entry: record.entry };
      case 'appearance':
        return state.newsletter.appearances.find(appearanceKey(record.item)) ? null : { op: 'appearances', items: [record.item] };
      case 'subscriber':
        return state.newsletter.subscriberOf(record.item.email) || state.newsletter.subscribers.find(record.item.id)
          ? null
          : { op: 'subscriber', item: record.item };
      case 'newsletterIssue':
        return state.newsletter.issues.find(issueKey(record.item)) ? null : { op: 'issuesQueued', items: [record.item] };
      case 'delivery':
        return state.deliveries.deliveries.find(deliveryKey(record.item)) ? null : { op: 'deliveriesQueued', items: [record.item] };
      case 'mention':
        return state.mentions.mentions.find(mentionKey(record.item)) ? null : { op: 'mention', item: record.item };
    }
  }
}

import { moderate } from './moderation.ts';
import type { FollowerStore, MentionStore, ModerationStore, NewsletterStore, TransferStore } from '../store/roles.ts';
import { instanceHost } from '../store/shapes.ts';
import { exportLine } from './format.ts';

/**
 * What the owner does to the store, one function a verb: the data tool's
 * commands (npm run data) and the desk's buttons (src/server/owner/desk-server.ts) both call
 * these, so that each does exactly the same. Each resolves with the sentence
 * that reports what it did, or throws OwnerActionFailed saying why it could not.
 */
export class OwnerActionFailed extends Error {}

/** A link to the article that answers a request: an absolute http(s) address or a path on the site; null for anything else. */
export function answerUrl(raw: string): string | null {
  if (raw.startsWith('/') && !raw.startsWith('//')) return raw;
  try {
    const url = new URL(raw);
    if (url.protocol === 'https:' || url.protocol === 'http:') return url.href;
  } catch {
    // Not an address.
  }
  return null;
}

export async function answerTopicRequest(store: ModerationStore, id: string, link: string): Promise<string> {
  if (!(await store.answerTopicRequest(id, { status: 'answered', answerUrl: link }))) throw new OwnerActionFailed(`no topic request ${id}`);
  return `topic request ${id}: answered by ${link}`;
}

export async function declineTopicRequest(store: ModerationStore, id: string): Promise<string> {
  if (!(await store.answerTopicRequest(id, { status: 'declined' }))) throw new OwnerActionFailed(`no topic request ${id}`);
  return `topic request ${id}: declined`;
}

/** The owner's verdict on a topic request waiting for approval (MODERATION): approve lists it, remove deletes it outright. */
export async function moderateTopicRequest(store: ModerationStore, verdict: 'approve' | 'remove', id: string): Promise<string> {
  if (!(await store.moderateTopicRequest(id, verdict))) throw new OwnerActionFailed(`no topic request ${id} waits for approval`);
  return `topic request ${id}: ${verdict === 'approve' ? 'approved' : 'removed'}`;
}

/** Marks a bug report or a city submission reviewed, whichever has the id. */
export async function markReviewed(store: ModerationStore, id: string): Promise<string> {
  if (await store.markReviewed('bugReport', id)) return `bug report ${id}: reviewed`;
  if (await store.markReviewed('citySubmission', id)) return `city submission ${id}: reviewed`;
  throw new OwnerActionFailed(`no bug report or city submission ${id}`);
}

/** What the owner does to one comment: approve it while it waits, or delete it (a waiting one is removed outright). */
export type CommentAction = 'approve' | 'delete';

/** An action on one comment, as a moderation link does it (src/server/owner/moderation.ts). */
export async function moderateComment(store: ModerationStore, action: CommentAction, id: string): Promise<string> {
  const past = action === 'approve' ? 'approved' : 'deleted';
  const outcome = await moderate(store, action, id);
  if (outcome.state === 'missing') throw new OwnerActionFailed(`no comment ${id}`);
  return `comment ${id} on ${outcome.comment.articleSlug}: ${outcome.state === 'ready' ? past : `was ${past} already`}`;
}

/** Bans or unbans a reader, by the hash of its address. */
export async function setReaderBan(store: ModerationStore, readerHash: string, banned: boolean): Promise<string> {
  const changed = await store.setBan(readerHash, banned);
  return `${readerHash}: ${changed ? (banned ? 'banned' : 'unbanned') : banned ? 'was banned already' : 'was not banned'}`;
}

/**
 * The host an owner names a fediverse instance by: its host name, an
 * address on it (`https://social.example/@bob`), or a handle on it
 * (`@bob@social.example`). Throws OwnerActionFailed for anything else.
 */
function instanceHostOf(raw: string): string {
  const named = raw.trim();
  const address = /^@?[^@\s/]+@([^@\s/]+)$/.exec(named)?.[1] ?? named;
  const url = URL.parse(address.includes('://') ? address : `https://${address}`);
  const host = instanceHost.safeParse(url?.hostname ?? '');
  if (!host.success) throw new OwnerActionFailed(`"${named}" names no instance: give its host name, as social.example`);
  return host.data;
}

/** Blocks a fediverse instance (and the hosts under it): nothing more from it is taken or sent to it, its followers are removed. */
export async function blockInstance(store: FollowerStore, raw: string): Promise<string> {
  const host = instanceHostOf(raw);
  return `${host}: ${(await store.blockInstance(host)) ? 'blocked, and its followers removed' : 'was blocked already'}`;
}

export async function unblockInstance(store: FollowerStore, raw: string): Promise<string> {
  const host = instanceHostOf(raw);
  return `${host}: ${(await store.unblockInstance(host)) ? 'unblocked' : 'was not blocked'}`;
}

/**
 * Removes the newsletter's subscriber of `email`, pending or confirmed, and
 * with it the emails not sent to it yet. The sentence never names the
 * address: the desk carries it in the URL it comes back to.
 */
export async function removeSubscriber(store: NewsletterStore, email: string): Promise<string> {
  const found = await store.subscriberByAddress(email);
  if (!found || !(await store.removeSubscriber(found.id))) throw new OwnerActionFailed('No subscriber has that address');
  return 'The address is removed, and its emails not sent yet with it';
}

/** The store's export, one JSON line a record (src/server/store/shapes.ts, `exportRecord`), as the store streams it. */
export async function* exportLines(store: TransferStore): AsyncGenerator<string> {
  for await (const record of store.exportRecords()) yield exportLine(record);
}

/** Publishes a received Webmention that waits for the owner (MODERATION=first): readers see it under the thread. */
export async function approveMention(store: MentionStore, source: string, target: string): Promise<string> {
  const kept = await store.findMention({ source, target });
  if (kept?.direction !== 'received' || kept.status !== 'waiting')
    throw new OwnerActionFailed('no Webmention of that source and target waits');
  await store.replaceMention({ ...kept, status: 'published' });
  return `the Webmention of ${source}: published`;
}

/** Removes a received Webmention, shown or waiting; sent again, it is verified again. */
export async function deleteMention(store: MentionStore, source: string, target: string): Promise<string> {
  const kept = await store.findMention({ source, target });
  if (kept?.direction !== 'received' || !(await store.removeMention(kept)))
    throw new OwnerActionFailed('no Webmention of that source and target');
  return `the Webmention of ${source}: removed`;
}

/**
 * Replies from the fediverse as comments (docs/architecture.md,
 * "Federation"): a signed `Create` of a `Note` whose `inReplyTo` is an
 * article translation's page (any language), a comment's place on it
 * (`…#comment-<id>`) or a remote post that became a comment, becomes a
 * comment in that article's one thread. The same rules as the site's own:
 * depth, the owner's and the burst ban, the comment quota (per remote
 * actor), MODERATION. The author is shown by their display name and handle
 * and linked to their profile; the text is the post's HTML made the
 * Markdown comments render (comment-markdown/markdown-from-html.ts), so that it
 * shows through the same safe renderer as a reader's. An `Update` of the
 * post by its author edits its text; a `Delete` removes it.
 * What is refused is dropped (a remote server reads no reason) and logged
 * without the actor.
 */
import type { InboxContext } from '@fedify/fedify';
import { Link, Note, type Actor, type Create, type Delete, type Update } from '@fedify/vocab';
import { readerHash } from '../identity/reader-hash.ts';
import { log } from '../observability/log.ts';
import { remoteCommentId } from '../store/records.ts';
import { addComment, placeInThread, statusOfNewComment } from '../store/service.ts';
import { visibleArticleAt, type FederationData } from './data.ts';
import { replyBody } from './reply-body.ts';

/** The longest display name kept; the handle is kept whole. */
const NAME_CHARS = 80;
const COMMENT_ANCHOR = /^#comment-([A-Za-z0-9_-]{1,64})$/;

/** Where a reply goes: its article, and the comment it answers (null: the article). */
async function placeOf(data: FederationData, target: URL | null): Promise<{ slug: string; parentId: string | null } | null> {
  if (target === null) return null;
  if (target.origin === new URL(data.site).origin) {
    const slug = visibleArticleAt(data, target);
    return slug === null ? null : { slug, parentId: COMMENT_ANCHOR.exec(target.hash)?.[1] ?? null };
  }
  const parent = await data.writes.store.remoteComment(remoteCommentId(target.href));
  return parent?.remote?.object === target.href ? { slug: parent.articleSlug, parentId: parent.id } : null;
}

/** How a remote author is shown: `Name (@user@host)`, or the handle alone. */
function authorOf(actor: Actor, id: URL): string {
  const handle = `@${actor.preferredUsername?.toString() ?? 'someone'}@${id.host}`;
  const name = actor.name?.toString().replace(/\s+/g, ' ').trim().slice(0, NAME_CHARS) ?? '';
  return name === '' ? handle : `${name} (${handle})`;
}

/** The page a remote author's name links to: their profile, else their actor. */
function profileOf(actor: Actor, id: URL): string {
  const url = actor.url;
  if (url instanceof URL) return url.href;
  if (url instanceof Link && url.href) return url.href.href;
  return id.href;
}

/** Why a reply was not taken, or null to take it. */
async function refusalOf(data: FederationData, hash: string, objectId: string): Promise<string | null> {
  const { store, quotas } = data.writes;
  if ((await store.isBanned(hash)) || (await quotas.banRemaining(hash)) > 0) return 'its author is banned';
  if (await store.remoteComment(remoteCommentId(objectId))) return 'it is a comment already';
  return null;
}

export async function takeReply(ctx: InboxContext<FederationData>, create: Create): Promise<void> {
  const note = await create.getObject(ctx);
  const actorId = create.actorId;
  if (!(note instanceof Note) || note.id === null || actorId === null || note.attributionId?.href !== actorId.href) return;
  const place = await placeOf(ctx.data, note.replyTargetId);
  if (!place) return;
  const actor = await create.getActor(ctx);
  const body = replyBody(note);
  if (actor?.id?.href !== actorId.href || body === null) return;
  const { store, quotas, moderation, salt } = ctx.data.writes;
  const hash = readerHash(actorId.href, salt);
  const refused = await refusalOf(ctx.data, hash, note.id.href);
  const inThread = refused ? null : await placeInThread(store, place.slug, place.parentId);
  const slot = inThread?.ok ? await quotas.reserve('comments', hash) : null;
  if (!inThread?.ok || !slot?.admitted) {
    log().info(`[federation] a reply was not taken (${refused ?? (inThread?.ok ? 'quota spent' : 'no such place in the thread')})`);
    return;
  }
  await addComment(store, {
    articleSlug: place.slug,
    parentId: place.parentId,
    depth: inThread.depth,
    author: authorOf(actor, actorId),
    authorHash: hash,
    body,
    status: await statusOfNewComment(store, moderation, hash),
    remote: { object: note.id.href, actor: actorId.href, profile: profileOf(actor, actorId) },
  });
  await quotas.countComment(hash).catch(() => undefined);
  log().info('[federation] a reply became a comment');
}

/** An `Update` of a remote post by its author: its comment's text becomes the post's. */
export async function editReply(ctx: InboxContext<FederationData>, update: Update): Promise<void> {
  const note = await update.getObject(ctx);
  const actorId = update.actorId;
  if (!(note instanceof Note) || note.id === null || actorId === null || note.attributionId?.href !== actorId.href) return;
  const { store } = ctx.data.writes;
  const id = remoteCommentId(note.id.href);
  const comment = await store.remoteComment(id);
  const body = replyBody(note);
  if (comment?.remote?.object !== note.id.href || comment.remote.actor !== actorId.href || body === null) return;
  await store.editRemoteComment(id, body);
  log().info('[federation] a reply was edited by its author');
}

/** A `Delete` of a remote post by its author: its comment goes, as the owner's delete would take it. */
export async function removeReply(ctx: InboxContext<FederationData>, deletion: Delete): Promise<void> {
  const { objectId, actorId } = deletion;
  if (objectId === null || actorId === null) return;
  const { store } = ctx.data.writes;
  const comment = await store.remoteComment(remoteCommentId(objectId.href));
  if (comment?.remote?.object !== objectId.href || comment.remote.actor !== actorId.href) return;
  if (comment.status === 'pending') await store.removePendingComment(comment.id);
  else await store.deleteComment(comment.id);
  log().info('[federation] a reply was deleted by its author');
}

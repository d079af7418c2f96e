/**
 * Comments written in another comment system, made into this store's
 * comments: matched to articles, threaded within the allowed depth, their
 * HTML made the safe Markdown subset, with ids made from the source's own ids
 * so that importing the same export twice adds nothing.
 */
import { markdownFromHtml } from '../comment-markdown/markdown-from-html.ts';
import { readerHash } from '../identity/reader-hash.ts';
import { remoteCommentId } from '../store/records.ts';
import { MAX_COMMENT_DEPTH } from '../store/service.ts';
import { commentSystem } from '../store/shapes.ts';
import type { CommentSystem, ExportRecord } from '../store/types.ts';

/** The systems whose exports are read: those a stored comment may have been imported from. */
export const IMPORT_SOURCES = commentSystem.options;
export type ImportSource = CommentSystem;

/**
 * Only published comments are imported; the others are counted as skipped,
 * by their status. WordPress's pingbacks and trackbacks are notices of a
 * link, not comments a reader wrote, so they are skipped too.
 */
export type ForeignStatus = 'approved' | 'spam' | 'deleted' | 'pending' | 'pingback' | 'trackback';

/**
 * One comment as a reader of another system's export yields it. An email or
 * an IP address the export holds is never read into it.
 */
export interface ForeignComment {
  sourceId: string;
  /** null for a top-level comment. */
  parentSourceId: string | null;
  /** The page it was written on: a full URL or a path. */
  pageUrl: string;
  authorName: string;
  authorUrl: string | null;
  /** ISO 8601 */
  createdAt: string;
  body: { html: string } | { text: string };
  status: ForeignStatus;
}

/** Old page URL or path → article slug, from the map file. */
export type ImportMap = ReadonlyMap<string, string>;

export interface ImportPlan {
  /** The comments to add, parents before replies, oldest first among siblings. */
  records: Extract<ExportRecord, { kind: 'comment' }>[];
  /** Comments imported per article slug. */
  matched: Map<string, number>;
  /** Comments whose page matched no article, per page. */
  unmatched: Map<string, number>;
  /** Comments skipped per reason (spam, deleted, pending, pingback, trackback, empty). */
  skipped: Map<string, number>;
}

function pathOf(pageUrl: string): string {
  try {
    return new URL(pageUrl, 'http://old.invalid').pathname;
  } catch {
    return pageUrl;
  }
}

/**
 * The article a page was: the map's entry for the URL or its path, else a
 * path `/articles/<slug>`, `/<lang>/articles/<slug>` or `/<slug>/` whose slug
 * is a known article's.
 */
function articleOf(pageUrl: string, slugs: ReadonlySet<string>, map: ImportMap): string | null {
  const path = pathOf(pageUrl);
  const mapped = map.get(pageUrl) ?? map.get(path) ?? map.get(path.replace(/\/$/, ''));
  if (mapped !== undefined) return mapped;
  const parts = path.split('/').filter((part) => part !== '');
  const last = parts.at(-1);
  const shaped = parts.length === 1 || (parts.length === 2 && parts[0] === 'articles') || (parts.length === 3 && parts[1] === 'articles');
  return shaped && last !== undefined && slugs.has(last) ? last : null;
}

/** The website an author gave, kept only as an http or https URL: anything else is dropped, never linked. */
function websiteOf(url: string | null): string | null {
  if (url === null) return null;
  try {
    const parsed = new URL(url.trim());
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.href : null;
  } catch {
    return null;
  }
}

function count(counts: Map<string, number>, key: string): null {
  counts.set(key, (counts.get(key) ?? 0) + 1);
  return null;
}

function bodyOf(comment: ForeignComment): string {
  return ('html' in comment.body ? markdownFromHtml(comment.body.html) : comment.body.text).trim();
}

/** The site's article slugs, the owner's map, and the store's salt. */
interface PlanContext {
  slugs: ReadonlySet<string>;
  map: ImportMap;
  salt: string;
}

interface Placed {
  id: string;
  depth: number;
  parent: Placed | null;
}

/** Walks the comments oldest first, placing each after its parent. */
class Planner {
  readonly plan: ImportPlan = { records: [], matched: new Map(), unmatched: new Map(), skipped: new Map() };
  private readonly bySourceId: Map<string, ForeignComment>;
  private readonly placed = new Map<string, Placed | null>();

  private readonly source: ImportSource;
  private readonly context: PlanContext;

  constructor(source: ImportSource, comments: readonly ForeignComment[], context: PlanContext) {
    this.source = source;
    this.context = context;
    this.bySourceId = new Map(comments.map((comment) => [comment.sourceId, comment]));
  }

  private parentOf(comment: ForeignComment): ForeignComment | undefined {
    return comment.parentSourceId === null ? undefined : this.bySourceId.get(comment.parentSourceId);
  }

  place(comment: ForeignComment): Placed | null {
    if (this.placed.has(comment.sourceId)) return this.placed.get(comment.sourceId) ?? null;
    this.placed.set(comment.sourceId, null);
    // A reply whose parent was skipped hangs from the nearest ancestor that was not.
    let above: Placed | null = null;
    for (let up = this.parentOf(comment); above === null && up !== undefined; up = this.parentOf(up)) above = this.place(up);
    const result = this.record(comment, above);
    this.placed.set(comment.sourceId, result);
    return result;
  }

  private record(comment: ForeignComment, above: Placed | null): Placed | null {
    const { plan, source, context } = this;
    if (comment.status !== 'approved') return count(plan.skipped, comment.status);
    const body = bodyOf(comment);
    if (body === '') return count(plan.skipped, 'empty');
    const slug = articleOf(comment.pageUrl, context.slugs, context.map);
    if (slug === null) return count(plan.unmatched, comment.pageUrl);
    count(plan.matched, slug);
    // Deeper than the thread allows: a reply to the deepest ancestor allowed.
    let parent = above;
    while (parent !== null && parent.depth >= MAX_COMMENT_DEPTH) parent = parent.parent;
    const placed: Placed = { id: remoteCommentId(`import ${source} ${comment.sourceId}`), depth: (parent?.depth ?? 0) + 1, parent };
    plan.records.push({
      kind: 'comment',
      comment: {
        id: placed.id,
        articleSlug: slug,
        parentId: parent?.id ?? null,
        depth: placed.depth,
        author: comment.authorName,
        authorHash: readerHash(`import ${source} ${comment.authorName}`, context.salt),
        body,
        createdAt: new Date(comment.createdAt).toISOString(),
        score: 0,
        deletedAt: null,
        status: 'published',
        remote: null,
        imported: { source, website: websiteOf(comment.authorUrl) },
      },
    });
    return placed;
  }
}

/** Plans an import: `salt` is the store's, so that each imported author has a hash of its own that no reader's can be. */
export function planImport(source: ImportSource, comments: readonly ForeignComment[], context: PlanContext): ImportPlan {
  const planner = new Planner(source, comments, context);
  for (const comment of [...comments].sort((a, b) => Date.parse(a.createdAt) - Date.parse(b.createdAt))) planner.place(comment);
  return planner.plan;
}

import { articlePath } from '../articles/catalog.ts';
import { commentHtml } from '../comment-markdown/comment-html.ts';
import type {
  BugReport,
  CitySubmission,
  CommentFilter,
  InstanceBlock,
  Mention,
  ReviewQueue,
  StoredComment,
  StoreStats,
  TopicRequest,
} from '../store/types.ts';
import { actionButton, html, Html } from './desk-html.ts';
import { subscribersLine } from './format.ts';

/** Comments a page of the desk's list shows. */
export const DESK_PAGE_SIZE = 50;

/** The query of the comments page, back as the URL it came from. */
function listUrl(filter: CommentFilter): string {
  const query = new URLSearchParams();
  if (filter.waiting) query.set('show', 'waiting');
  if (filter.articleSlug) query.set('article', filter.articleSlug);
  if (filter.authorHash) query.set('reader', filter.authorHash);
  if (filter.before) query.set('before', filter.before);
  const text = query.toString();
  return text === '' ? '/' : `/?${text}`;
}

function commentItem(comment: StoredComment, banned: boolean, site: string, back: string): Html {
  const reader = encodeURIComponent(comment.authorHash);
  const deleted = comment.deletedAt !== null;
  const waiting = comment.status === 'pending';
  return html`<li>
    <article aria-labelledby="comment-${comment.id}">
      <h2 class="meta" id="comment-${comment.id}">
        ${comment.author} on <a href="${site}${articlePath(comment.articleSlug, 'en')}">${comment.articleSlug}</a>,
        <time datetime="${comment.createdAt}">${comment.createdAt.replace('T', ' ').slice(0, 16)} UTC</time
        >${deleted ? html` · <span class="state">deleted</span>` : null}${waiting ? html` · <span class="state">waiting for approval</span>` : null}${banned ? html` · <span class="state">reader banned</span>` : null}
      </h2>
      ${deleted ? null : html`<div class="text" dir="auto">${new Html(commentHtml(comment.body))}</div>`}
      <div class="actions">
        <a href="/?reader=${reader}">This reader's comments</a>
        ${waiting ? actionButton(`/comments/${encodeURIComponent(comment.id)}/approve`, 'Approve', back) : null}
        ${deleted ? null : actionButton(`/comments/${encodeURIComponent(comment.id)}/delete`, 'Delete', back)}
        ${actionButton(`/readers/${reader}/${banned ? 'unban' : 'ban'}`, banned ? 'Unban the reader' : 'Ban the reader', back)}
      </div>
    </article>
  </li>`;
}

/** The newest comments across articles, filtered, with a way to older ones. */
export function commentsBody(
  filter: CommentFilter,
  comments: readonly StoredComment[],
  bannedReaders: ReadonlySet<string>,
  site: string,
): Html {
  const back = listUrl(filter);
  const last = comments.at(-1);
  const older = comments.length === DESK_PAGE_SIZE && last ? listUrl({ ...filter, before: last.createdAt }) : null;
  const filtered =
    filter.waiting === true || filter.articleSlug !== undefined || filter.authorHash !== undefined || filter.before !== undefined;
  return html`<form class="filters" method="get" action="/" role="search" aria-label="Filter the comments">
      <label
        >Show<select name="show">
          <option value="all">Every comment</option>
          <option value="waiting" ${filter.waiting ? html` selected` : null}>Waiting for approval</option>
        </select></label
      >
      <label>Article (its slug)<input name="article" value="${filter.articleSlug ?? ''}" /></label>
      <label>Reader (their hash)<input name="reader" value="${filter.authorHash ?? ''}" /></label>
      <button type="submit">Filter</button>
      ${filtered ? html`<a href="/">Every comment</a>` : null}
    </form>
    ${
      comments.length === 0
        ? html`<p>No comment${filtered ? ' here' : ' yet'}.</p>`
        : html`<ol class="items">
            ${comments.map((comment) => commentItem(comment, bannedReaders.has(comment.authorHash), site, back))}
          </ol>`
    }
    ${older ? html`<p><a href="${older}">Older comments</a></p>` : null}`;
}

/** The buttons of a topic request waiting for approval: no reader has seen it, so removing it leaves nothing. */
function waitingRequestActions(id: string): Html {
  return html`<div class="actions">
    ${actionButton(`/topic-requests/${id}/approve`, 'Approve', '/requests')}
    ${actionButton(`/topic-requests/${id}/remove`, 'Remove', '/requests')}
  </div>`;
}

function topicRequestItem(request: TopicRequest): Html {
  const id = encodeURIComponent(request.id);
  const waiting = request.status === 'waiting';
  return html`<li>
    <article aria-labelledby="request-${request.id}">
      <h3 id="request-${request.id}">${request.requestTitle}</h3>
      <p class="meta">
        <time datetime="${request.createdAt}">${request.createdAt.slice(0, 10)}</time>${
          waiting ? html` · <span class="state">waiting for approval</span>` : null
        }
      </p>
      ${request.details ? html`<p class="text">${request.details}</p>` : null} ${waiting ? waitingRequestActions(id) : answerActions(id)}
    </article>
  </li>`;
}

/** The buttons of a listed topic request: answer it with an article, or decline it. */
function answerActions(id: string): Html {
  return html`<div class="actions">
    <form class="answer" method="post" action="/topic-requests/${id}/answer">
      <input type="hidden" name="back" value="/requests" /><label
        >The article that answers it (a path on the site or an address)<input name="url" required
      /></label>
      <button type="submit">Answer</button>
    </form>
    ${actionButton(`/topic-requests/${id}/decline`, 'Decline', '/requests')}
  </div>`;
}

function reviewItem(title: string, details: Html, item: BugReport | CitySubmission): Html {
  return html`<li>
    <article aria-labelledby="review-${item.id}">
      <h3 id="review-${item.id}">${title}</h3>
      <p class="meta"><time datetime="${item.createdAt}">${item.createdAt.slice(0, 10)}</time></p>
      ${details}
      <div class="actions">${actionButton(`/reviews/${encodeURIComponent(item.id)}/done`, 'Mark done', '/requests')}</div>
    </article>
  </li>`;
}

function list(items: readonly Html[], empty: string): Html {
  return items.length === 0
    ? html`<p>${empty}</p>`
    : html`<ol class="items">
        ${items}
      </ol>`;
}

/** The fediverse instances blocked (npm run data -- blocked-instances), each with its button, and the form that blocks one. */
function instancesSection(blocks: readonly InstanceBlock[]): Html {
  const unblock = (host: string) =>
    actionButton('/instances/unblock', 'Unblock', '/requests', html`<input type="hidden" name="host" value="${host}" />`);
  return html`<section aria-labelledby="instances">
    <h2 id="instances">Blocked instances</h2>
    <form class="answer" method="post" action="/instances/block">
      <input type="hidden" name="back" value="/requests" /><label
        >A fediverse instance to block (its host name, an address or a handle on it)<input name="host" required autocomplete="off"
      /></label>
      <button type="submit">Block</button>
    </form>
    ${list(
      blocks.map(
        ({ host, blockedAt }) =>
          html`<li>
            <p><strong>${host}</strong> (and the hosts under it), since ${blockedAt.slice(0, 10)}</p>
            ${unblock(host)}
          </li>`,
      ),
      'No instance is blocked.',
    )}
  </section>`;
}

/** The Webmentions received (npm run data -- mentions), those waiting first, each with its buttons. */
function mentionsSection(mentions: readonly Mention[]): Html {
  const fields = (mention: Mention) =>
    html`<input type="hidden" name="source" value="${mention.source}" /><input type="hidden" name="target" value="${mention.target}" />`;
  const ordered = [...mentions].sort((a, b) => Number(b.status === 'waiting') - Number(a.status === 'waiting'));
  return html`<section aria-labelledby="mentions">
    <h2 id="mentions">Webmentions</h2>
    ${list(
      ordered.map(
        (mention) =>
          html`<li>
            <p>
              <strong>${mention.status}</strong> ${mention.kind ?? ''} by ${mention.authorName ?? 'someone'}:
              <a href="${mention.source}" rel="nofollow noopener">${mention.source}</a> on ${mention.target}
            </p>
            ${mention.content === null ? null : html`<p class="text">${mention.content}</p>`}
            ${mention.status === 'waiting' ? actionButton('/mentions/approve', 'Approve', '/requests', fields(mention)) : null}
            ${actionButton('/mentions/delete', 'Delete', '/requests', fields(mention))}
          </li>`,
      ),
      'No Webmention was received.',
    )}
  </section>`;
}

/**
 * What waits for the owner (npm run data -- review), the blocked instances, the Webmentions received and the
 * store's counts (npm run data -- stats).
 */
export function requestsBody(queue: ReviewQueue, stats: StoreStats, blocks: readonly InstanceBlock[], mentions: readonly Mention[]): Html {
  const { topicRequests } = stats;
  const counts: [string, number | string][] = [
    ['Articles with comments', stats.articles],
    ['Comments', stats.comments],
    ['Comments deleted', stats.deletedComments],
    ['Votes', stats.votes],
    [
      'Topic requests waiting, pending, answered, declined',
      `${topicRequests.waiting}, ${topicRequests.pending}, ${topicRequests.answered}, ${topicRequests.declined}`,
    ],
    ['Bug reports waiting', stats.bugReports.pending],
    ['City submissions waiting', stats.citySubmissions.pending],
    ['Readers banned', stats.bans],
    ['Newsletter subscribers by language', subscribersLine(stats.subscribers)],
  ];
  return html`<section aria-labelledby="topics">
      <h2 id="topics">Topic requests</h2>
      ${list(queue.topicRequests.map(topicRequestItem), 'No topic request waits.')}
    </section>
    <section aria-labelledby="bugs">
      <h2 id="bugs">Bug reports</h2>
      ${list(
        queue.bugReports.map((report) =>
          reviewItem(report.pagePath ?? 'A bug report', html`<p class="text">${report.description}</p>`, report),
        ),
        'No bug report waits.',
      )}
    </section>
    <section aria-labelledby="cities">
      <h2 id="cities">City submissions</h2>
      ${list(
        queue.citySubmissions.map((submission) =>
          reviewItem(
            `${submission.city}, ${submission.countryName}`,
            html`<p class="text">
              Net pay ${submission.netPay} ${submission.currency}, rent ${submission.rent}, a beer ${submission.beerPrice}
            </p>`,
            submission,
          ),
        ),
        'No city submission waits.',
      )}
    </section>
    <section aria-labelledby="newsletter">
      <h2 id="newsletter">Newsletter</h2>
      <form class="answer" method="post" action="/subscribers/remove">
        <input type="hidden" name="back" value="/requests" /><label
          >An address to remove, with its emails not sent yet<input name="email" type="email" required autocomplete="off"
        /></label>
        <button type="submit">Remove</button>
      </form>
    </section>
    ${instancesSection(blocks)} ${mentionsSection(mentions)}
    <section aria-labelledby="counts">
      <h2 id="counts">Counts</h2>
      <dl class="counts">
        ${counts.map(
          ([label, value]) =>
            html`<dt>${label}</dt>
              <dd>${value}</dd>`,
        )}
      </dl>
    </section>`;
}

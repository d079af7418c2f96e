import type { ExportRecord, ReviewQueue, StoreStats, SubscriberCounts } from '../store/types.ts';

/**
 * How the data tool shows the review queue and the counts: plain text for a
 * terminal. Readers wrote that text, so none of it reaches the terminal as a
 * control: an escape sequence could rewrite the screen, hide a line, set the
 * window title or make a link (OSC 8) whose target is not the text it shows.
 */

/**
 * What a terminal would act on instead of showing: C0 controls (ESC, BEL,
 * backspace, carriage return…), DEL, C1 controls (U+0080–U+009F, which some
 * terminals read as ESC sequences, U+009B as CSI), the line and paragraph
 * separators, and the bidirectional marks, embeddings, overrides and isolates
 * that reorder what follows them on the line.
 */
// eslint-disable-next-line no-control-regex -- control characters are exactly what is escaped
const UNPRINTABLE = /[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/gu;

function escapeCode(character: string): string {
  const code = character.charCodeAt(0);
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
}

/**
 * `text` on one line, as a terminal shows it: line breaks, tabs and runs of
 * spaces become one space, every other character of UNPRINTABLE is written
 * as its escape (`\x1b`, `\u202e`), and a backslash as `\\`, so that an
 * escape shown is never one the reader typed. Cut to `max` characters.
 */
function oneLine(text: string, max = 100): string {
  const flat = text
    .replace(/\\/g, '\\\\')
    .replace(/(?:\r?\n|[\t \p{Zs}])+/gu, ' ')
    .replace(UNPRINTABLE, escapeCode)
    .trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

/**
 * An export record as one JSON line. JSON.stringify escapes C0 controls only;
 * the rest of UNPRINTABLE is escaped too (`\u009b`), which JSON reads back as
 * the same string, so an export printed to a terminal shows them instead of
 * obeying them.
 */
export function exportLine(record: ExportRecord): string {
  // Outside its strings a JSON text is ASCII: every match is inside a string.
  return `${JSON.stringify(record).replace(UNPRINTABLE, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`)}\n`;
}

function section(title: string, lines: string[]): string {
  return `${title} (${lines.length})\n${lines.length > 0 ? lines.map((line) => `  ${line}`).join('\n') : '  none'}\n`;
}

export function formatQueue({ comments, topicRequests, bugReports, citySubmissions }: ReviewQueue): string {
  return [
    section(
      'Comments waiting for approval',
      comments.map(
        (comment) =>
          `${oneLine(comment.id)}  ${comment.createdAt.slice(0, 10)}  ${comment.articleSlug}  ${oneLine(comment.author, 40)}: ${oneLine(comment.body)}`,
      ),
    ),
    section(
      'Topic requests',
      topicRequests.map(
        (request) =>
          `${oneLine(request.id)}  ${request.createdAt.slice(0, 10)}  ${oneLine(request.requestTitle)}${request.details ? ` — ${oneLine(request.details, 60)}` : ''}${request.status === 'waiting' ? '  (waiting for approval)' : ''}`,
      ),
    ),
    section(
      'Bug reports',
      bugReports.map(
        (report) =>
          `${oneLine(report.id)}  ${report.createdAt.slice(0, 10)}  ${report.pagePath === null ? '(no page)' : oneLine(report.pagePath)}  ${oneLine(report.description)}`,
      ),
    ),
    section(
      'City submissions',
      citySubmissions.map(
        (submission) =>
          `${oneLine(submission.id)}  ${submission.createdAt.slice(0, 10)}  ${oneLine(submission.city)}, ${oneLine(submission.country)}  pay ${submission.netPay} ${oneLine(submission.currency)}, rent ${submission.rent}, beer ${submission.beerPrice}`,
      ),
    ),
  ].join('\n');
}

/** Each language's subscribers, confirmed first: `fr 3 (1 pending), en 2`; `none` when there are none. */
export function subscribersLine(counts: SubscriberCounts): string {
  const parts = Object.entries(counts).map(
    ([lang, { confirmed, pending }]) => `${lang} ${confirmed}${pending > 0 ? ` (${pending} pending)` : ''}`,
  );
  return parts.length > 0 ? parts.join(', ') : 'none';
}

export function formatStats(stats: StoreStats): string {
  const { topicRequests, bugReports, citySubmissions } = stats;
  return [
    `articles with comments  ${stats.articles}`,
    `comments                ${stats.comments} (${stats.deletedComments} deleted, ${stats.pendingComments} waiting for approval)`,
    `votes                   ${stats.votes}`,
    `topic requests          ${Object.values(topicRequests).reduce((sum, count) => sum + count, 0)} (${topicRequests.waiting} waiting, ${topicRequests.pending} pending, ${topicRequests.answered} answered, ${topicRequests.declined} declined)`,
    `bug reports             ${bugReports.total} (${bugReports.pending} to review)`,
    `city submissions        ${citySubmissions.total} (${citySubmissions.pending} to review)`,
    `banned readers          ${stats.bans}`,
    `subscribers             ${subscribersLine(stats.subscribers)}`,
    '',
  ].join('\n');
}

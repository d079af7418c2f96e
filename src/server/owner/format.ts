import type { ReviewQueue, StoreStats } from '../store/types.ts';

/** How the data tool shows the review queue and the counts: plain text for a terminal. */

function oneLine(text: string, max = 100): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function section(title: string, lines: string[]): string {
  return `${title} (${lines.length})\n${lines.length > 0 ? lines.map((line) => `  ${line}`).join('\n') : '  none'}\n`;
}

export function formatQueue({ topicRequests, bugReports, citySubmissions }: ReviewQueue): string {
  return [
    section(
      'Topic requests',
      topicRequests.map(
        (request) =>
          `${request.id}  ${request.createdAt.slice(0, 10)}  ${oneLine(request.requestTitle)}${request.details ? ` — ${oneLine(request.details, 60)}` : ''}`,
      ),
    ),
    section(
      'Bug reports',
      bugReports.map(
        (report) => `${report.id}  ${report.createdAt.slice(0, 10)}  ${report.pagePath ?? '(no page)'}  ${oneLine(report.description)}`,
      ),
    ),
    section(
      'City submissions',
      citySubmissions.map(
        (submission) =>
          `${submission.id}  ${submission.createdAt.slice(0, 10)}  ${submission.city}, ${submission.country}  pay ${submission.netPay} ${submission.currency}, rent ${submission.rent}, beer ${submission.beerPrice}`,
      ),
    ),
  ].join('\n');
}

export function formatStats(stats: StoreStats): string {
  const { topicRequests, bugReports, citySubmissions } = stats;
  return [
    `articles with comments  ${stats.articles}`,
    `comments                ${stats.comments} (${stats.deletedComments} deleted)`,
    `votes                   ${stats.votes}`,
    `topic requests          ${topicRequests.pending + topicRequests.answered + topicRequests.declined} (${topicRequests.pending} pending, ${topicRequests.answered} answered, ${topicRequests.declined} declined)`,
    `bug reports             ${bugReports.total} (${bugReports.pending} to review)`,
    `city submissions        ${citySubmissions.total} (${citySubmissions.pending} to review)`,
    `banned readers          ${stats.bans}`,
    '',
  ].join('\n');
}

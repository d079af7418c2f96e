import { newBugReport, newCitySubmission, newTopicRequest } from '../records.ts';
import type { SubmissionStore } from '../roles.ts';
import type { BugReport, CitySubmission, NewBugReport, NewCitySubmission, NewTopicRequest, TopicRequest } from '../types.ts';
import type { PostgresCore } from './engine.ts';
import { BUG_REPORT_ROWS, CITY_SUBMISSION_ROWS, insertStatement, TOPIC_REQUEST_ROWS } from './inserts.ts';
import { TOPIC_REQUEST_COLUMNS, topicRequestOf, type TopicRequestRow } from './rows.ts';

/** Topic requests, bug reports and city submissions on PostgreSQL: each new one with its outbox entries, in one statement. */
export class PostgresSubmissions implements SubmissionStore {
  readonly #core: PostgresCore;

  constructor(core: PostgresCore) {
    this.#core = core;
  }

  /**
   * The request and the revision of /answers in one statement: the
   * revision's row, which every topic request locks, is held for the commit
   * only, not across a round trip to this process, which under load lasts
   * long enough for the requests queueing on that row to run out of their
   * statement timeout.
   */
  async insertTopicRequest(request: NewTopicRequest): Promise<TopicRequest> {
    const stored = newTopicRequest(request);
    const inserted = insertStatement(TOPIC_REQUEST_ROWS, [stored]);
    const { text, params } = this.#core.withOutbox(
      {
        text: `WITH inserted AS (${inserted.text} RETURNING id)
       INSERT INTO revisions (topic, revision) SELECT 'topic-requests', 1 FROM inserted
       ON CONFLICT (topic) DO UPDATE SET revision = revisions.revision + 1`,
        params: inserted.params,
      },
      [{ kind: 'topicRequest', record: stored }],
    );
    await this.#core.query(text, params);
    return stored;
  }

  async listTopicRequests(): Promise<TopicRequest[]> {
    const { rows } = await this.#core.query<TopicRequestRow>(
      `SELECT ${TOPIC_REQUEST_COLUMNS} FROM topic_requests WHERE status <> 'waiting' ORDER BY position DESC`,
    );
    return rows.map(topicRequestOf);
  }

  async insertBugReport(report: NewBugReport): Promise<BugReport> {
    const stored = newBugReport(report);
    const { text, params } = this.#core.withOutbox(insertStatement(BUG_REPORT_ROWS, [stored]), [{ kind: 'bugReport', record: stored }]);
    await this.#core.query(text, params);
    return stored;
  }

  async insertCitySubmission(submission: NewCitySubmission): Promise<CitySubmission> {
    const stored = newCitySubmission(submission);
    const { text, params } = this.#core.withOutbox(insertStatement(CITY_SUBMISSION_ROWS, [stored]), [
      { kind: 'citySubmission', record: stored },
    ]);
    await this.#core.query(text, params);
    return stored;
  }
}

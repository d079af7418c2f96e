import { newBugReport, newCitySubmission, newTopicRequest } from '../records.ts';
import type { SubmissionStore } from '../roles.ts';
import type { BugReport, CitySubmission, NewBugReport, NewCitySubmission, NewTopicRequest, TopicRequest } from '../types.ts';
import type { EmbeddedCore } from './engine.ts';

/** Topic requests, bug reports and city submissions in the embedded store: a collection each, in memory. */
export class EmbeddedSubmissions implements SubmissionStore {
  readonly #core: EmbeddedCore;

  constructor(core: EmbeddedCore) {
    this.#core = core;
  }

  async insertTopicRequest(request: NewTopicRequest): Promise<TopicRequest> {
    const stored = newTopicRequest(request);
    const answer = { ...stored };
    await this.#core.commit({ op: 'topicRequest', item: stored, outbox: this.#core.outboxRefs(stored.id) });
    return answer;
  }

  listTopicRequests(): Promise<TopicRequest[]> {
    return Promise.resolve(this.#core.state.topicRequests.newestFirst().filter((request) => request.status !== 'waiting'));
  }

  async insertBugReport(report: NewBugReport): Promise<BugReport> {
    const stored = newBugReport(report);
    const answer = { ...stored };
    await this.#core.commit({ op: 'bugReport', item: stored, outbox: this.#core.outboxRefs(stored.id) });
    return answer;
  }

  async insertCitySubmission(submission: NewCitySubmission): Promise<CitySubmission> {
    const stored = newCitySubmission(submission);
    const answer = { ...stored };
    await this.#core.commit({ op: 'citySubmission', item: stored, outbox: this.#core.outboxRefs(stored.id) });
    return answer;
  }
}

import { now } from './clock.ts';
import { newId } from './ids.ts';
import { bugReport, citySubmission, comment, topicRequest } from './shapes.ts';
import type {
  BugReport,
  CitySubmission,
  NewBugReport,
  NewCitySubmission,
  NewComment,
  NewTopicRequest,
  StoredBan,
  StoredComment,
  TopicRequest,
} from './types.ts';

/**
 * The records a write stores, made once for every engine: a new id, the time
 * of the write, the fields a new record starts with, checked against its
 * schema (shapes.ts), so that an engine stores only what it could read back.
 */

export function newComment(fields: NewComment): StoredComment {
  return comment.parse({ ...fields, id: newId(), createdAt: now(), score: 0, deletedAt: null });
}

/** Listed at once (`pending`) unless it waits for approval. */
export function newTopicRequest(fields: NewTopicRequest): TopicRequest {
  return topicRequest.parse({ status: 'pending', ...fields, id: newId(), createdAt: now(), answerUrl: null });
}

export function newBugReport(fields: NewBugReport): BugReport {
  return bugReport.parse({ ...fields, id: newId(), createdAt: now(), reviewedAt: null });
}

export function newCitySubmission(fields: NewCitySubmission): CitySubmission {
  return citySubmission.parse({ ...fields, id: newId(), createdAt: now(), reviewedAt: null });
}

/** The owner's ban of a reader, from now. */
export function newBan(readerHash: string): StoredBan {
  return { readerHash, since: now() };
}

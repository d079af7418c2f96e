import { findCity, knownCountryCodes } from '../cities/find-city.ts';
import { castVote, createBugReport, createCitySubmission, createComment, createTopicRequest, type IsPublished } from './operations.ts';
import { identify, runWrite, type WriteOperation } from './pipeline.ts';
import { runtime } from '../runtime.ts';
import { answerViewerVotes } from './viewer-votes.ts';

/** An endpoint as both the Astro route and the front server's direct path call it. */
export type Endpoint = (request: Request, clientAddress: string) => Promise<Response>;

const submitCity = createCitySubmission(
  (lookup) => findCity(lookup),
  (code) => knownCountryCodes().includes(code),
);

/**
 * The endpoints that read or write reader data, keyed `METHOD /path`. The
 * routes in src/pages/api call them, and so does the front server without
 * Astro's render in between, which is most of a write's cost.
 */
export function readerEndpoints(publishedToday: () => Promise<IsPublished>): ReadonlyMap<string, Endpoint> {
  const write =
    <Input>(operation: (isPublished: IsPublished) => WriteOperation<Input>): Endpoint =>
    async (request, socketAddress) =>
      runWrite({ request, socketAddress }, await runtime(), operation(await publishedToday()));
  return new Map<string, Endpoint>([
    ['POST /api/comments', write(createComment)],
    ['POST /api/votes', write(castVote)],
    ['POST /api/topic-requests', write(() => createTopicRequest)],
    ['POST /api/bug-reports', write(() => createBugReport)],
    ['POST /api/city-submissions', write(() => submitCity)],
    [
      'GET /api/votes',
      async (request, socketAddress) => {
        const opened = await runtime();
        const { reader } = identify({ request, socketAddress }, opened);
        return answerViewerVotes(new URL(request.url).searchParams.get('slug'), await publishedToday(), reader, opened.store);
      },
    ],
  ]);
}

import { createFederation, MemoryKvStore, type Federation } from '@fedify/fedify';
import { Article } from '@fedify/vocab';
import { LANGUAGE_CODES, isLanguageCode } from '../../i18n/languages.ts';
import { setting } from '../settings/environment.ts';
import { setActors } from './actors.ts';
import { articleObject } from './articles.ts';
import { setCollections } from './collections.ts';
import { visibleToday, type FederationData } from './data.ts';
import { setInbox } from './inbox.ts';
import { englishNamed, FEDERATION_PATHS, isFederationRequest } from './paths.ts';

/** What the front server is handed (src/server/front/federation-route.ts): which requests are the federation's, and their answer. */
export interface FederationEndpoint {
  owns(method: string, pathname: string, accept: string | undefined): boolean;
  answer(request: Request): Promise<Response>;
}

/**
 * The publication's federation, built on Fedify: WebFinger, NodeInfo 2.1,
 * an actor a language with its keys, outbox and followers, the articles as
 * objects, and the inboxes. Remote actors and keys are cached in this
 * process's memory, each with Fedify's expiry; nothing is queued: an
 * `Accept` leaves while its `Follow` is answered. Private and loopback
 * addresses are refused unless FEDERATION_ALLOW_PRIVATE_ADDRESSES=1.
 */
function federationOf(site: string): Federation<FederationData> {
  const federation = createFederation<FederationData>({
    kv: new MemoryKvStore(),
    origin: site,
    allowPrivateAddress: setting('FEDERATION_ALLOW_PRIVATE_ADDRESSES') === '1',
  });
  setActors(federation);
  setCollections(federation);
  setInbox(federation);
  federation.setObjectDispatcher(Article, FEDERATION_PATHS.article, (ctx, values) => {
    const { lang, slug } = values;
    return isLanguageCode(lang) ? articleObject(ctx, slug, lang) : null;
  });
  federation.setNodeInfoDispatcher(FEDERATION_PATHS.nodeInfo, (ctx) => ({
    software: { name: 'longhand', version: '1.0.0' },
    protocols: ['activitypub'],
    openRegistrations: false,
    usage: {
      users: { total: LANGUAGE_CODES.length },
      localPosts: LANGUAGE_CODES.reduce(
        (sum, lang) =>
          sum +
          visibleToday(ctx.data)
            .list(lang)
            .filter((item) => item.lang === lang).length,
        0,
      ),
      localComments: 0,
    },
  }));
  return federation;
}

/** The federation's endpoint over `data`, for the front server. */
export function federationEndpoint(data: FederationData): FederationEndpoint {
  const federation = federationOf(data.site);
  const notFound = () => new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  return {
    owns: isFederationRequest,
    answer: (request) =>
      federation.fetch(englishNamed(request), {
        contextData: data,
        onNotFound: notFound,
        // An actor's or a collection's URL asked for as a page: there is no page there.
        onNotAcceptable: () =>
          new Response('Not acceptable: ask for application/activity+json', { status: 406, headers: { Vary: 'Accept' } }),
      }),
  };
}

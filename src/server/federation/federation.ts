import { createFederation, type Federation } from '@fedify/fedify';
import { Article } from '@fedify/vocab';
import { LANGUAGE_CODES, isLanguageCode } from '../../i18n/languages.ts';
import { setting } from '../settings/environment.ts';
import type { Consumer } from '../appearances/watch.ts';
import type { FederationServer } from '../front/federation-route.ts';
import { setActors } from './actors.ts';
import { BoundedKvStore } from './bounded-kv.ts';
import { documentLoaders } from './document-loader.ts';
import { inboxRefusal } from './inbox-gate.ts';
import { articleObject, tombstoneOf } from './articles.ts';
import { setCollections } from './collections.ts';
import { visibleToday, type FederationData } from './data.ts';
import { startDeliverer } from './deliverer.ts';
import { fanOutConsumer } from './fan-out.ts';
import { setInbox } from './inbox.ts';
import { WEBMENTION_PATH } from '../http/site-paths.ts';
import { receiveWebmention } from './webmention/receive.ts';
import { queueSentMentions, startMentionWorker } from './webmention/worker.ts';
import { articlePageOf, englishNamed, FEDERATION_PATHS, isFederationRequest } from './paths.ts';

/** FEDERATION_ALLOW_PRIVATE_ADDRESSES: for tests on one machine only (start-up warns). */
function allowsPrivateAddresses(): boolean {
  return setting('FEDERATION_ALLOW_PRIVATE_ADDRESSES') === '1';
}

/**
 * The publication's federation, built on Fedify: WebFinger, NodeInfo 2.1,
 * an actor a language with its keys, outbox and followers, the articles as
 * objects, and the inboxes. Remote actors and keys are cached in this
 * process's memory, each with Fedify's expiry, within a budget (bounded-kv.ts); an `Accept` leaves while its
 * `Follow` is answered, and articles go to followers through the store's
 * deliveries (deliverer.ts). Every remote document is read through
 * outbound.ts (document-loader.ts), which refuses private and loopback
 * addresses unless FEDERATION_ALLOW_PRIVATE_ADDRESSES=1.
 */
function federationOf(site: string): Federation<FederationData> {
  const kv = new BoundedKvStore();
  const loaders = documentLoaders(kv, allowsPrivateAddresses());
  const federation = createFederation<FederationData>({
    kv,
    origin: site,
    documentLoaderFactory: () => loaders.plain,
    authenticatedDocumentLoaderFactory: (identity) => loaders.signedAs(identity),
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

/** The federation as the server runs it when FEDERATION is on: its endpoint, its part of appearances, and its deliverer. */
export interface RunningFederation {
  endpoint: FederationServer;
  consumer: Consumer;
  /** Stops the deliverer within its grace. */
  stop(): Promise<void>;
}

/** Starts the federation over `data`: the deliverer runs from now on, beside the requests. */
export function startFederation(data: FederationData): RunningFederation {
  const federation = federationOf(data.site);
  const deliverer = startDeliverer(federation.createContext(new URL(data.site), data), allowsPrivateAddresses());
  const mentions = startMentionWorker(data, allowsPrivateAddresses());
  const fanOut = fanOutConsumer(data.store, data.site, () => {
    deliverer.wake();
  });
  return {
    endpoint: endpointOf(federation, data, () => {
      mentions.wake();
    }),
    consumer: {
      ...fanOut,
      // A version that is visible sends a Webmention to each link of its text not sent one yet.
      take: async (appearance) => {
        await fanOut.take(appearance);
        if (appearance.change !== 'delete' && (await queueSentMentions(data, appearance.slug, appearance.lang)) > 0) mentions.wake();
      },
    },
    stop: async () => {
      await Promise.all([deliverer.stop(), mentions.stop()]);
    },
  };
}

/** The federation's endpoint over `data`, for the front server; `mentioned` is told when a Webmention waits. */
function endpointOf(federation: Federation<FederationData>, data: FederationData, mentioned: () => void): FederationServer {
  const notFound = () => new Response('Not found', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  // A withdrawn translation's id answers its Tombstone, 410 Gone, as Fedify answers a Tombstone actor.
  const gone = async (request: Request): Promise<Response | null> => {
    const page = articlePageOf(new URL(request.url).pathname);
    const tombstone = page && (await tombstoneOf(data, page.slug, page.lang));
    if (!tombstone) return null;
    const body = JSON.stringify(await tombstone.toJsonLd(federation.createContext(request, data)));
    return new Response(body, { status: 410, headers: { 'Content-Type': 'application/activity+json', Vary: 'Accept' } });
  };
  return {
    webmentionEndpoint: `${data.site}${WEBMENTION_PATH}`,
    owns: (method, pathname, accept) =>
      (method === 'POST' && pathname === WEBMENTION_PATH) || isFederationRequest(method, pathname, accept),
    answer: async (request, caller) =>
      (new URL(request.url).pathname === WEBMENTION_PATH ? await receiveWebmention(data, request, caller, mentioned) : null) ??
      (await inboxRefusal(data, request)) ??
      federation.fetch(englishNamed(request), {
        contextData: data,
        onNotFound: async (request) => (await gone(request)) ?? notFound(),
        // An actor's or a collection's URL asked for as a page: there is no page there.
        onNotAcceptable: () =>
          new Response('Not acceptable: ask for application/activity+json', { status: 406, headers: { Vary: 'Accept' } }),
      }),
  };
}

/**
 * A fediverse server on loopback, built with Fedify, for the federation's
 * HTTP tests (tests/http/federation*.test.ts): actors of any lower-case
 * name (`alice`, `bob`…) with their keys and inboxes, and the server's
 * shared inbox, which actors named `solo…` do not name (they get their
 * activities in their own inbox). Run as a child process (`startPeer`, with
 * the site's TEST_CLOCK when it has one, as HTTP signatures carry the time);
 * the test drives it through `/control/…`: where the site really listens
 * (its ids name SITE_URL, which the test site keeps at its build's value), a
 * Follow or an Undo to send, signed or not, and what its inboxes received:
 * every POST as it came, and the activities Fedify verified against the
 * site's key and handed on, once per activity and inbox.
 */
import { spawn } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import { join } from 'node:path';
import { createFederation, generateCryptoKeyPair, getDocumentLoader, MemoryKvStore, signRequest } from '@fedify/fedify';
import { Activity, Announce, Create, Delete, Endpoints, Follow, Like, Note, Person, PUBLIC_COLLECTION, Undo, Update } from '@fedify/vocab';
import { freePort } from './ports.ts';
import { startSite, type RunningSite } from './site.ts';

/** The site's origin as its ids name it, and where it really listens. */
const route = { nominal: 'http://localhost:4321', actual: '' };

function actualUrl(url: string): string {
  return route.actual && url.startsWith(route.nominal) ? route.actual + url.slice(route.nominal.length) : url;
}

async function runPeer(port: number): Promise<void> {
  const origin = `http://127.0.0.1:${port}`;
  const keys = await generateCryptoKeyPair('RSASSA-PKCS1-v1_5');
  const load = getDocumentLoader({ allowPrivateAddress: true });
  const received: unknown[] = [];
  /** Every POST to an inbox, verified or not, as `<inbox path> <activity id>`. */
  const posts: string[] = [];
  /** Every request the peer's actors and inboxes were sent, as `<method> <path>`. */
  const requests: string[] = [];
  /** Milliseconds each inbox POST is held before it is answered. */
  let inboxDelay = 0;
  const loader = async (url: string) => ({ ...(await load(actualUrl(url))), documentUrl: url });
  const federation = createFederation<null>({
    kv: new MemoryKvStore(),
    origin,
    documentLoaderFactory: () => loader,
    authenticatedDocumentLoaderFactory: () => loader,
  });
  federation
    .setActorDispatcher('/users/{identifier}', async (ctx, identifier) =>
      /^[a-z0-9]+$/.test(identifier)
        ? new Person({
            id: ctx.getActorUri(identifier),
            preferredUsername: identifier,
            name: `${identifier.charAt(0).toUpperCase()}${identifier.slice(1)}`,
            inbox: ctx.getInboxUri(identifier),
            endpoints: identifier.startsWith('solo') ? null : new Endpoints({ sharedInbox: ctx.getInboxUri() }),
            publicKey: (await ctx.getActorKeyPairs(identifier))[0]?.cryptographicKey ?? null,
          })
        : null,
    )
    .setKeyPairsDispatcher(() => [keys]);
  /** The notes its actors wrote, served at their ids, as a server serves its posts. */
  const notes = new Map<string, Note>();
  federation.setObjectDispatcher(Note, '/notes/{id}', (_ctx, { id }) => notes.get(id) ?? null);
  federation.setInboxListeners('/users/{identifier}/inbox', '/inbox').on(Activity, async (ctx, activity) => {
    received.push({ ...((await activity.toJsonLd()) as object), receivedBy: ctx.recipient ?? 'shared inbox' });
  });
  const actor = (name: string) => new URL(`/users/${name}`, origin);
  const followOf = (lang: string, name: string) =>
    new Follow({
      id: new URL(`#follow-${lang}`, actor(name)),
      actor: actor(name),
      object: new URL(`/federation/actors/${lang}`, route.nominal),
    });

  const reactionOf = (name: string, kind: string, object: string, n: string) => {
    const Kind = kind === 'like' ? Like : Announce;
    return new Kind({ id: new URL(`#${kind}-${n}`, actor(name)), actor: actor(name), object: new URL(object), to: PUBLIC_COLLECTION });
  };

  /** Posts `activity` to the site's inbox of `lang`, signed as its actor's unless `signed` is false; resolves with the answer. */
  async function send(lang: string, activity: Activity, signed: boolean): Promise<Response> {
    const request = new Request(actualUrl(`${route.nominal}/federation/actors/${lang}/inbox`), {
      method: 'POST',
      headers: { 'Content-Type': 'application/activity+json' },
      body: JSON.stringify(await activity.toJsonLd()),
    });
    const sent = signed ? await signRequest(request, keys.privateKey, new URL('#main-key', activity.actorId ?? '')) : request;
    return fetch(sent);
  }

  /** Posts as `send` does; resolves with the status. */
  async function post(lang: string, activity: Activity, signed: boolean): Promise<number> {
    return (await send(lang, activity, signed)).status;
  }

  const control: Record<string, (body: Record<string, string>) => Promise<unknown>> = {
    site: ({ url = '' }) => {
      route.actual = url;
      return Promise.resolve(url);
    },
    follow: async ({ lang = 'en', signed = 'yes', name = 'alice' }) => post(lang, followOf(lang, name), signed === 'yes'),
    undo: async ({ lang = 'en', name = 'alice' }) =>
      post(lang, new Undo({ id: new URL(`#undo-${lang}`, actor(name)), actor: actor(name), object: followOf(lang, name) }), true),
    reply: async ({ name = 'alice', n = '1', inReplyTo = '', content = '', signed = 'yes' }) => {
      const note = new Note({
        id: new URL(`/notes/${name}-${n}`, origin),
        attribution: actor(name),
        replyTarget: new URL(inReplyTo),
        content,
        to: PUBLIC_COLLECTION,
      });
      notes.set(`${name}-${n}`, note);
      const create = new Create({
        id: new URL(`/notes/${name}-${n}#create`, origin),
        actor: actor(name),
        object: note,
        to: PUBLIC_COLLECTION,
      });
      return post('en', create, signed === 'yes');
    },
    edit: async ({ name = 'alice', n = '1', content = '' }) => {
      const id = new URL(`/notes/${name}-${n}`, origin);
      const note = new Note({
        id,
        attribution: actor(name),
        replyTarget: notes.get(`${name}-${n}`)?.replyTargetId ?? null,
        content,
        to: PUBLIC_COLLECTION,
      });
      notes.set(`${name}-${n}`, note);
      return post(
        'en',
        new Update({ id: new URL(`#update-${notes.size}-${content.length}`, id), actor: actor(name), object: note, to: PUBLIC_COLLECTION }),
        true,
      );
    },
    unreply: async ({ name = 'alice', n = '1', as = name }) => {
      notes.delete(`${name}-${n}`);
      const id = new URL(`/notes/${name}-${n}`, origin);
      return post('en', new Delete({ id: new URL(`#delete-by-${as}`, id), actor: actor(as), object: id, to: PUBLIC_COLLECTION }), true);
    },
    // A Like (kind=like) or an Announce (kind=boost) of `object`, the n-th of its actor; `unreact` sends its Undo, as `as`.
    // With answer=whole: the status and the Retry-After header.
    react: async ({ name = 'alice', kind = 'like', object = '', n = '1', answer = 'status' }) => {
      const sent = await send('en', reactionOf(name, kind, object, n), true);
      return answer === 'whole' ? { status: sent.status, retryAfter: sent.headers.get('retry-after') } : sent.status;
    },
    unreact: async ({ name = 'alice', kind = 'like', object = '', n = '1', as = name }) =>
      post(
        'en',
        new Undo({ id: new URL(`#undo-${kind}-${n}`, actor(as)), actor: actor(as), object: reactionOf(name, kind, object, n) }),
        true,
      ),
    received: () => Promise.resolve(received),
    posts: () => Promise.resolve(posts),
    requests: () => Promise.resolve(requests),
    slow: ({ ms = '0' }) => {
      inboxDelay = Number(ms);
      return Promise.resolve(inboxDelay);
    },
  };
  const answer = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const body = Buffer.concat(chunks);
    const url = new URL(req.url ?? '/', origin);
    const handler = url.pathname.startsWith('/control/') ? control[url.pathname.slice('/control/'.length)] : undefined;
    if (handler) {
      const answer = await handler(body.length > 0 ? (JSON.parse(body.toString()) as Record<string, string>) : {});
      res.writeHead(200, { 'Content-Type': 'application/json' }).end(JSON.stringify(answer));
      return;
    }
    requests.push(`${req.method ?? 'GET'} ${url.pathname}`);
    if (req.method === 'POST' && /^\/(?:users\/[a-z0-9]+\/)?inbox$/.test(url.pathname)) {
      posts.push(`${url.pathname} ${String((JSON.parse(body.toString()) as { id?: unknown }).id)}`);
      if (inboxDelay > 0) await new Promise((resolve) => setTimeout(resolve, inboxDelay));
    }
    const headers = Object.entries(req.headers).flatMap(([name, value]) =>
      typeof value === 'string' ? [[name, value] as [string, string]] : [],
    );
    const request = new Request(url, { method: req.method ?? 'GET', headers, ...(body.length > 0 ? { body } : {}) });
    const response = await federation.fetch(request, { contextData: null });
    res.writeHead(response.status, Object.fromEntries(response.headers)).end(Buffer.from(await response.arrayBuffer()));
  };
  createServer((req, res) => {
    answer(req, res).catch((error: unknown) => {
      res.writeHead(500).end(String(error));
    });
  }).listen(port, '127.0.0.1', () => {
    console.log(`peer listening on ${origin}`);
  });
}

/** A running peer: its origin, and its control calls. */
export interface Peer {
  origin: string;
  actorId: string;
  control<T>(name: string, body?: Record<string, string>): Promise<T>;
  stop(): void;
}

/** Starts the peer in a child process on a free loopback port, its clock at `clock` (TEST_CLOCK) if given; resolves once it listens. */
export async function startPeer(clock?: string): Promise<Peer> {
  const port = await freePort();
  const child = spawn(process.execPath, ['--import', join(import.meta.dirname, 'clock.ts'), import.meta.filename, String(port)], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...(clock ? { TEST_CLOCK: clock } : {}) },
  });
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('peer listening')) resolve();
    });
    child.once('exit', (code) => {
      reject(new Error(`the peer exited (${code})`));
    });
  });
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    actorId: `${origin}/users/alice`,
    async control<T>(name: string, body: Record<string, string> = {}) {
      const response = await fetch(`${origin}/control/${name}`, { method: 'POST', body: JSON.stringify(body) });
      return (await response.json()) as T;
    },
    stop: () => {
      child.kill();
    },
  };
}

/**
 * Starts a site whose address the peer knows before it listens (its port
 * chosen first), so that what it sends at once, before a test could tell
 * the peer, is verified against its key.
 */
export async function startSiteFor(peer: Peer, dir: string, env: Record<string, string>): Promise<RunningSite> {
  const port = await freePort();
  await peer.control('site', { url: `http://127.0.0.1:${port}` });
  return startSite(dir, { ...env, PORT: String(port) });
}

if (process.argv[1] === import.meta.filename) await runPeer(Number(process.argv[2]));

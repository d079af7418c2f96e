import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, test } from 'node:test';
import { COMMENT_BURST_BAN, quotaOf } from '../../src/server/quotas/limits.ts';
import { request, type Answer } from '../support/http.ts';
import { startNginx, type Nginx } from '../support/nginx.ts';
import { freePort } from '../support/ports.ts';
import { dropDatabases, freshDatabase, queryRows } from '../support/postgres.ts';
import { PREPARED_SITE, startSite, type RunningSite } from '../support/site.ts';
import { get, post, postFrom, SITE_ORIGIN } from '../support/writes.ts';

/**
 * nginx in front of two instances sharing PostgreSQL and Redis, as
 * docs/deploying.md deploys them, under mixed load from readers of their own addresses, one
 * instance SIGKILLed midway and started again on its port.
 */
const SECONDS = Number(process.env['RELIABILITY_LOAD_SECONDS'] ?? 30);
const READERS = Array.from({ length: 40 }, (_, index) => `127.0.0.${index + 11}`);
const ARTICLE = 'the-price-of-a-beer';
const REDIS_URL = process.env['TEST_REDIS_URL'] ?? 'redis://127.0.0.1:6379';
/** How long after the killed instance's exit a request in flight on it may end failing. */
const KILL_WINDOW_MS = 2000;

let proxy: Nginx | undefined;
const instances: RunningSite[] = [];
let ports: number[] = [];
let databaseUrl = '';
let env: Record<string, string> = {};

before(async () => {
  ports = [await freePort(), await freePort()];
  proxy = await startNginx(await freePort(), ports);
  // A fresh database brings a fresh salt: reader hashes, and so the quota keys in the shared Redis, are this run's own.
  databaseUrl = await freshDatabase('proxy');
  // nginx and the test's direct reads reach the instances from 127.0.0.1: the proxy named by its address, as docs/deploying.md deploys it.
  env = { DATABASE_URL: databaseUrl, REDIS_URL, TRUST_PROXY: '127.0.0.1', SITE_URL: SITE_ORIGIN };
  // Each kept as soon as it listens, so that the after hook stops it even when the other fails to start.
  await Promise.all(
    ports.map(async (port, index) => {
      instances[index] = await startSite(PREPARED_SITE, { ...env, PORT: String(port) });
    }),
  );
});
after(async () => {
  await Promise.all(instances.map((instance) => instance.stop()));
  await proxy?.stop();
  await dropDatabases();
});

type Write = 'comment' | 'vote' | 'topicRequest';

/** A request that did not get its expected answer, and when it ran. */
interface Failure {
  what: string;
  startedAt: number;
  endedAt: number;
}

test(`${SECONDS} s of mixed load through nginx to two instances, one SIGKILLed midway: no acknowledged write lost or doubled, failures only in flight on the killed one`, async () => {
  const site = proxy?.url ?? '';
  const statuses = new Map<string, number>();
  const failures: Failure[] = [];
  /** Every comment body and topic title is unique: acknowledged ones must be stored once, the others at most once. */
  const sent = new Set<string>();
  const acknowledged = { comment: new Set<string>(), topicRequest: new Set<string>(), vote: 0 };
  /** Each reader's article vote as its last acknowledged vote answered, unless a vote of theirs failed since. */
  const articleVote = new Map<string, number>();
  const kill = { sentAt: 0, exitedAt: 0, listeningAt: 0 };
  const ban = { ms: -1, writes: 0 };
  let sequence = 0;

  const reader = async (from: string, index: number, deadline: number) => {
    let comments = 0;
    let votes = 0;
    const read = (path: string) => ({ run: () => request(`${site}${path}`, { localAddress: from }) });
    const write = async (kind: 'comment' | 'topicRequest', path: string, body: Record<string, string>, text: string) => {
      sent.add(text);
      const answer = await postFrom(site, path, body, from);
      if (answer.status === 200) acknowledged[kind].add(text);
      return answer;
    };
    const steps: { write?: Write; run: () => Promise<Answer> }[] = [
      read(`/articles/${ARTICLE}`),
      read(`/threads/${ARTICLE}`),
      read(`/api/votes?slug=${ARTICLE}`),
      read('/api/articles'),
      read('/answers'),
      {
        write: 'comment',
        run: () => {
          const body = `Through nginx from ${from}, #${(sequence += 1)}`;
          return write('comment', '/api/comments', { articleSlug: ARTICLE, body }, body);
        },
      },
      {
        write: 'vote',
        run: async () => {
          const answer = await postFrom(site, '/api/votes', { articleSlug: ARTICLE, value: (votes += 1) % 2 ? 1 : -1 }, from);
          if (answer.status === 200) {
            acknowledged.vote += 1;
            articleVote.set(from, answer.json<{ vote: number }>().vote);
          }
          return answer;
        },
      },
      {
        write: 'topicRequest',
        run: () => {
          const requestTitle = `Asked through nginx from ${from}, #${(sequence += 1)}`;
          return write('topicRequest', '/api/topic-requests', { requestTitle }, requestTitle);
        },
      },
    ];
    for (let turn = 0; Date.now() < deadline; turn += 1) {
      let step = steps[(index + turn * 5) % steps.length] as (typeof steps)[number];
      // Fewer comments than the burst ban counts: the load bans no one (the ban below has a reader of its own).
      if (step.write === 'comment' && (comments += 1) >= COMMENT_BURST_BAN.comments) step = read(`/threads/${ARTICLE}`);
      const startedAt = Date.now();
      const failed = (what: string) => {
        failures.push({ what: `${step.write ?? 'read'} ${what}`, startedAt, endedAt: Date.now() });
        if (step.write === 'vote') articleVote.delete(from);
      };
      try {
        const answer = await step.run();
        statuses.set(String(answer.status), (statuses.get(String(answer.status)) ?? 0) + 1);
        // Votes and topic requests have quotas of their own (60 a minute, 5 a day) that a busy reader reaches.
        const expected = answer.status === 200 || (answer.status === 429 && (step.write === 'vote' || step.write === 'topicRequest'));
        if (!expected)
          failed(`${answer.status}${answer.headers['content-type']?.includes('json') ? ` ${String(answer.json()['error'])}` : ''}`);
      } catch (error) {
        statuses.set('error', (statuses.get('error') ?? 0) + 1);
        failed((error as NodeJS.ErrnoException).code ?? String(error));
      }
    }
  };

  /** The burst ban triggered through the first instance, then a write by that reader on the second: the delay until it is refused. */
  const banAcrossInstances = async () => {
    const [first, second] = instances as [RunningSite, RunningSite];
    const address = '127.0.0.200';
    // All at once: the one that makes the count bans the reader before it answers.
    await Promise.all(
      Array.from({ length: COMMENT_BURST_BAN.comments }, async (_, n) => {
        const body = `Burst through the first instance, #${n}`;
        const answer = await post(first.url, '/api/comments', { articleSlug: ARTICLE, body }, address);
        assert.equal(answer.status, 200, answer.text);
        acknowledged.comment.add(body);
      }),
    );
    const bannedAt = Date.now();
    for (let refused = false; !refused;) {
      const answer = await post(second.url, '/api/votes', { articleSlug: ARTICLE, value: 1 }, address);
      ban.writes += 1;
      refused = answer.status === 429 && Number(answer.headers['retry-after']) > 40 * 3600;
      assert.ok(refused || Date.now() - bannedAt < 1000, `the second instance still answers ${answer.status} 1 s after the ban`);
    }
    ban.ms = Date.now() - bannedAt;
  };

  /** Midway, once the ban is measured: the second instance is SIGKILLed, then started again on its port. */
  const killMidway = async (start: number) => {
    await banAcrossInstances();
    await sleep(Math.max(0, start + (SECONDS * 1000) / 2 - Date.now()));
    const victim = instances[1] as RunningSite;
    kill.sentAt = Date.now();
    await victim.kill();
    kill.exitedAt = Date.now();
    instances[1] = await startSite(PREPARED_SITE, { ...env, PORT: String(ports[1]) });
    kill.listeningAt = Date.now();
  };

  const start = Date.now();
  // Settled, not raced: a failure of the kill's side rethrows once the readers have stopped too.
  const settled = await Promise.allSettled([
    killMidway(start),
    ...READERS.map((from, index) => reader(from, index, start + SECONDS * 1000)),
  ]);
  for (const result of settled) if (result.status === 'rejected') throw result.reason;

  // A reader sees the same thread and votes whichever instance answers: asked through nginx, and of each as that reader.
  const differing: string[] = [];
  const votesSeen = new Map<string, number>();
  for (const from of READERS) {
    for (const path of [`/threads/${ARTICLE}`, `/api/votes?slug=${ARTICLE}`]) {
      const viaProxy = await request(`${site}${path}`, { localAddress: from });
      assert.equal(viaProxy.status, 200, viaProxy.text);
      for (const instance of instances) {
        const direct = await get(instance.url, path, from);
        if (direct.text !== viaProxy.text) differing.push(`${from} ${path} on ${instance.url}`);
      }
      if (path.startsWith('/api/votes')) votesSeen.set(from, viaProxy.json<{ article: number }>().article);
    }
  }
  const wrongVotes = [...articleVote].filter(([from, vote]) => votesSeen.get(from) !== vote);

  const stored = await queryRows<{ text: string; copies: number }>(
    databaseUrl,
    `SELECT body AS text, count(*)::int AS copies FROM comments GROUP BY body
     UNION ALL SELECT request_title, count(*)::int FROM topic_requests GROUP BY request_title`,
  );
  const copies = new Map(stored.map(({ text, copies: count }) => [text, count]));
  const ackedTexts = [...acknowledged.comment, ...acknowledged.topicRequest];
  const lost = ackedTexts.filter((text) => !copies.has(text));
  const doubled = [...copies].filter(([, count]) => count > 1).map(([text]) => text);
  const [score] = await queryRows<{ score: number; votes: string }>(
    databaseUrl,
    `SELECT (SELECT score FROM article_scores WHERE article_slug = $1) AS score,
            (SELECT coalesce(sum(vote), 0) FROM article_votes WHERE article_slug = $1) AS votes`,
    [ARTICLE],
  );

  // Which instance nginx passed each request to (the killed one before and after its restart), and those it tried on both.
  const served = new Map<string, number>();
  const triedOnBoth = new Map<string, number>();
  for (const line of (await proxy?.accessLog())?.trim().split('\n') ?? []) {
    const [time = '', method = '', , ...upstreams] = line.split(' ');
    const port = Number(upstreams.at(-1)?.split(':')[1]);
    const instance = port === ports[0] ? 'first' : port === ports[1] ? 'second' : 'none';
    const restarted = instance === 'second' && Number(time) * 1000 >= kill.listeningAt ? ' restarted' : '';
    served.set(instance + restarted, (served.get(instance + restarted) ?? 0) + 1);
    if (upstreams.length > 1) triedOnBoth.set(method, (triedOnBoth.get(method) ?? 0) + 1);
  }

  const requests = [...statuses.values()].reduce((sum, count) => sum + count, 0);
  // In flight at the kill: sent before the instance was gone, answered once it was killed, and soon after.
  const outsideKill = failures.filter(
    ({ startedAt, endedAt }) => startedAt > kill.exitedAt || endedAt < kill.sentAt || endedAt > kill.exitedAt + KILL_WINDOW_MS,
  );
  const failed = new Map<string, number>();
  for (const { what } of failures) failed.set(what, (failed.get(what) ?? 0) + 1);
  const storedUnanswered = [...sent].filter(
    (text) => !acknowledged.comment.has(text) && !acknowledged.topicRequest.has(text) && copies.has(text),
  );
  console.log(
    `behind nginx: ${requests} requests in ${SECONDS} s from ${READERS.length} readers through nginx to two instances, statuses ${JSON.stringify(Object.fromEntries(statuses))}; ` +
      `1 kill at ${((kill.sentAt - start) / 1000).toFixed(1)} s, the instance listening again ${kill.listeningAt - kill.exitedAt} ms after its exit; ` +
      `served by ${JSON.stringify(Object.fromEntries(served))}, tried on both ${JSON.stringify(Object.fromEntries(triedOnBoth))}; ` +
      `failed ${failures.length}, ${outsideKill.length} of them not in flight at the kill: ${JSON.stringify(Object.fromEntries(failed))}; ` +
      `acknowledged writes ${ackedTexts.length + acknowledged.vote} (${acknowledged.comment.size} comments, ${acknowledged.vote} votes, ${acknowledged.topicRequest.size} topic requests), lost ${lost.length}, doubled ${doubled.length}, stored without a 200 ${storedUnanswered.length}; ` +
      `score ${score?.score} for votes summing to ${score?.votes}; readers seeing another thread or votes on an instance ${differing.length}; ` +
      `the burst ban made on one instance refused the reader's write number ${ban.writes} on the other, ${ban.ms} ms after its 100 comments were answered`,
  );
  assert.deepEqual(lost, [], 'every acknowledged comment and topic request is stored');
  assert.deepEqual(doubled, [], 'no write is stored twice: nginx retried no POST');
  const logged = instances.flatMap((instance) =>
    instance
      .output()
      .split('\n')
      // The instances' error lines (JSON, src/server/observability/log.ts): a failed request is logged there with its id.
      .filter((line) => line.includes('"level":"error"')),
  );
  assert.deepEqual(
    outsideKill,
    [],
    `only requests in flight on the killed instance fail; the instances logged:\n${logged.slice(0, 10).join('\n')}`,
  );
  assert.ok(failures.length <= READERS.length, 'at most one request per reader is in flight at the kill');
  assert.equal(score?.score, Number(score?.votes), 'the score is the sum of the votes stored');
  assert.ok(acknowledged.topicRequest.size <= READERS.length * quotaOf('topic-requests').quota, 'the quota holds across both instances');
  assert.deepEqual(wrongVotes, [], 'each reader’s stored vote is what its last acknowledged vote answered');
  assert.deepEqual(differing, [], 'every instance shows each reader the same thread and votes as nginx');
  assert.ok(ban.ms >= 0 && ban.ms < 1000);
});

import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { request } from '../support/http.ts';
import { freePort } from '../support/ports.ts';
import { dropDatabases, freshDatabase } from '../support/postgres.ts';
import { PREPARED_SITE, startSite, type RunningSite } from '../support/site.ts';
import { get, newReaderAddress, post } from '../support/writes.ts';

/**
 * The Prometheus metrics on their own port: after a known run of reads and
 * writes, refused ones included, the scraped counters say exactly that, in
 * the exposition format.
 */
const ARTICLE = 'the-price-of-a-beer';

let site: RunningSite;
let metricsUrl: string;

before(async () => {
  const port = await freePort();
  metricsUrl = `http://127.0.0.1:${port}/metrics`;
  // The captcha secret alone is a misconfiguration: the writes that need a captcha fail (500), which counts them as failed.
  site = await startSite(PREPARED_SITE, { TRUST_PROXY: '1', METRICS_PORT: String(port), CAPTCHA_SECRET: 'secret' });
});
after(async () => {
  await site.stop();
  await dropDatabases();
});

interface Family {
  type: string;
  samples: { name: string; labels: Record<string, string>; value: number }[];
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const SAMPLE = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/;
const LABEL = /^([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\\n]|\\[\\"n])*)"(?:,|$)/;

/**
 * A parser of the Prometheus text format (0.0.4), strict where it matters:
 * every sample belongs to a family declared by `# TYPE` before it (a
 * histogram's as `_bucket`, `_sum`, `_count`), label pairs are well formed,
 * values are numbers, and a histogram's buckets grow up to `+Inf`, which
 * equals its count.
 */
function parseExposition(text: string): Map<string, Family> {
  const families = new Map<string, Family>();
  assert.ok(text.endsWith('\n'), 'the exposition ends with a line end');
  for (const line of text.split('\n')) {
    if (line === '') continue;
    if (line.startsWith('# HELP ')) {
      assert.match(line.split(' ')[2] ?? '', NAME, line);
      continue;
    }
    if (line.startsWith('# TYPE ')) {
      const [, , name = '', type = ''] = line.split(' ');
      assert.match(name, NAME, line);
      assert.ok(['counter', 'gauge', 'histogram', 'summary', 'untyped'].includes(type), line);
      assert.ok(!families.has(name), `${name} declared once`);
      families.set(name, { type, samples: [] });
      continue;
    }
    assert.ok(!line.startsWith('#'), `a comment line: ${line}`);
    const match = SAMPLE.exec(line);
    assert.ok(match, `a sample line: ${line}`);
    const [, name = '', labelText = '', valueText = ''] = match;
    const labels: Record<string, string> = {};
    let rest = labelText;
    while (rest !== '') {
      const pair = LABEL.exec(rest);
      assert.ok(pair, `labels of ${line}`);
      labels[pair[1] ?? ''] = pair[2] ?? '';
      rest = rest.slice(pair[0].length);
    }
    const value = valueText === '+Inf' ? Infinity : valueText === '-Inf' ? -Infinity : Number(valueText);
    assert.ok(valueText === 'NaN' || !Number.isNaN(value), `a number: ${line}`);
    const family =
      families.get(name) ?? families.get(name.replace(/_(bucket|sum|count)$/, '')) ?? assert.fail(`${name} has no # TYPE before it`);
    if (!families.has(name)) assert.ok(family.type === 'histogram' || family.type === 'summary', `${name} is a part of a histogram`);
    family.samples.push({ name, labels, value });
  }
  for (const [name, family] of families) {
    if (family.type !== 'histogram') continue;
    const series = new Map<string, number[]>();
    for (const sample of family.samples.filter((each) => each.name === `${name}_bucket`)) {
      const { le, ...others } = sample.labels;
      assert.ok(le !== undefined, `${name}_bucket has le`);
      const key = JSON.stringify(others);
      series.set(key, [...(series.get(key) ?? []), sample.value]);
      if (le === '+Inf') {
        const count = family.samples.find((each) => each.name === `${name}_count` && JSON.stringify(each.labels) === key);
        assert.equal(count?.value, sample.value, `${name}${key}: +Inf equals the count`);
      }
    }
    for (const [key, values] of series)
      assert.deepEqual(
        values,
        [...values].sort((a, b) => a - b),
        `${name}${key}: buckets grow`,
      );
  }
  return families;
}

/** The value of one sample, 0 when absent (a series appears with its first count). */
function valueOf(families: Map<string, Family>, name: string, labels: Record<string, string>): number {
  const family = families.get(name.replace(/_(bucket|sum|count)$/, '')) ?? families.get(name);
  const wanted = JSON.stringify(Object.entries(labels).sort());
  const sample = family?.samples.find((each) => each.name === name && JSON.stringify(Object.entries(each.labels).sort()) === wanted);
  return sample?.value ?? 0;
}

test('the scraped counters say exactly how many reads and writes of each kind and outcome were answered', async () => {
  const voter = newReaderAddress();
  // The votes quota is 60 a minute: the 61st is refused. The same vote again toggles it, and each is stored.
  for (let n = 0; n < 61; n += 1)
    assert.equal((await post(site.url, '/api/votes', { articleSlug: ARTICLE, value: 1 }, voter)).status, n < 60 ? 200 : 429);
  for (let n = 0; n < 2; n += 1)
    assert.equal((await post(site.url, '/api/votes', { articleSlug: ARTICLE, value: 7 }, newReaderAddress())).status, 400);
  assert.equal((await post(site.url, '/api/votes', { articleSlug: 'nope', value: 1 }, newReaderAddress())).status, 404);
  for (let n = 0; n < 2; n += 1)
    assert.equal((await post(site.url, '/api/topic-requests', { requestTitle: 'x' }, newReaderAddress())).status, 400);
  assert.equal((await post(site.url, '/api/topic-requests', { requestTitle: 'Night trains' }, newReaderAddress())).status, 500);
  for (let n = 0; n < 3; n += 1) {
    const foreign = await post(site.url, '/api/bug-reports', { description: 'x' }, newReaderAddress(), {
      Origin: 'https://elsewhere.example',
    });
    assert.equal(foreign.status, 403);
  }
  for (let n = 0; n < 3; n += 1) assert.equal((await get(site.url, `/articles/${ARTICLE}`, newReaderAddress())).status, 200);
  for (let n = 0; n < 2; n += 1) assert.equal((await get(site.url, `/articles/${ARTICLE}.md`, newReaderAddress())).status, 200);
  assert.equal((await get(site.url, '/no-such-page', newReaderAddress())).status, 404);

  const scrape = await request(metricsUrl);
  assert.equal(scrape.status, 200);
  assert.match(String(scrape.headers['content-type']), /^text\/plain; version=0\.0\.4/);
  const families = parseExposition(scrape.text);

  const writes = (write: string, outcome: string) => valueOf(families, 'longhand_writes_total', { write, outcome });
  const outcomes = ['stored', 'quota', 'ban', 'captcha', 'validation', 'origin', 'failed'];
  assert.deepEqual(
    outcomes.map((outcome) => writes('votes', outcome)),
    [60, 1, 0, 0, 3, 0, 0],
  );
  assert.deepEqual(
    outcomes.map((outcome) => writes('topic-requests', outcome)),
    [0, 0, 0, 0, 2, 0, 1],
  );
  assert.deepEqual(
    outcomes.map((outcome) => writes('bug-reports', outcome)),
    [0, 0, 0, 0, 0, 3, 0],
  );
  assert.equal(writes('comments', 'stored'), 0);

  const requests = (labels: Record<string, string>) => valueOf(families, 'longhand_http_requests_total', labels);
  assert.equal(requests({ kind: 'page', status: '2xx' }), 3);
  assert.equal(requests({ kind: 'page', status: '4xx' }), 1);
  assert.equal(requests({ kind: 'twin', status: '2xx' }), 2);
  assert.equal(requests({ kind: 'api', operation: 'castVote', status: '2xx' }), 60);
  assert.equal(requests({ kind: 'api', operation: 'castVote', status: '4xx' }), 4);
  assert.equal(requests({ kind: 'api', operation: 'createTopicRequest', status: '4xx' }), 2);
  assert.equal(requests({ kind: 'api', operation: 'createTopicRequest', status: '5xx' }), 1);
  assert.equal(requests({ kind: 'api', operation: 'createBugReport', status: '4xx' }), 3);
  assert.equal(valueOf(families, 'longhand_http_request_duration_seconds_count', { kind: 'page' }), 4);
  assert.equal(valueOf(families, 'longhand_http_request_duration_seconds_count', { kind: 'api', operation: 'castVote' }), 64);

  for (const name of [
    'process_resident_memory_bytes',
    'nodejs_heap_size_used_bytes',
    'nodejs_eventloop_lag_seconds',
    'longhand_cache_entries',
    'longhand_cache_bytes',
    'longhand_cache_hits_total',
    'longhand_cache_misses_total',
    'longhand_store_compactions_total',
  ])
    assert.ok(families.has(name), name);
  assert.ok(valueOf(families, 'longhand_cache_misses_total', { cache: 'not-found' }) >= 1);
  assert.doesNotMatch(scrape.text, /198\.51\.|127\.0\.0\.1/, 'no address is a label value');
});

test('the metrics are on their own port only: /metrics on the public port is an ordinary 404, and the metrics port serves nothing else', async () => {
  const publicResponse = await request(`${site.url}/metrics`);
  assert.equal(publicResponse.status, 404);
  assert.doesNotMatch(publicResponse.text, /longhand_|process_/);
  assert.equal((await request(metricsUrl.replace('/metrics', '/'))).status, 404);
  assert.equal((await request(metricsUrl.replace('/metrics', '/readyz'))).status, 404);
});

test('on PostgreSQL, the store batches are counted by kind: every vote is in one batch or another', async () => {
  const databaseUrl = await freshDatabase('metrics');
  const port = await freePort();
  const onPostgres = await startSite(PREPARED_SITE, { TRUST_PROXY: '1', METRICS_PORT: String(port), DATABASE_URL: databaseUrl });
  try {
    await Promise.all(
      Array.from({ length: 5 }, async () => {
        const voted = await post(onPostgres.url, '/api/votes', { articleSlug: ARTICLE, value: 1 }, newReaderAddress());
        assert.equal(voted.status, 200);
      }),
    );
    const families = parseExposition((await request(`http://127.0.0.1:${port}/metrics`)).text);
    assert.equal(valueOf(families, 'longhand_store_batch_size_sum', { batch: 'votes' }), 5);
    const batches = valueOf(families, 'longhand_store_batch_size_count', { batch: 'votes' });
    assert.ok(batches >= 1 && batches <= 5, `${batches} batches`);
    assert.equal(valueOf(families, 'longhand_store_batch_duration_seconds_count', { batch: 'votes' }), batches);
  } finally {
    await onPostgres.stop();
  }
});

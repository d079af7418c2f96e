import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  batchLength,
  MCP_CONCURRENCY,
  MCP_READER_CONCURRENCY,
  MCP_READER_RATE,
  McpAdmission,
  type Admission,
} from '../../src/server/mcp/admission.ts';

function leaveOf(admission: Admission): () => void {
  assert.ok('leave' in admission, JSON.stringify(admission));
  return admission.leave;
}

/** A refused admission's status, the words that say which limit, and its Retry-After. */
function refusalOf(admission: Admission): [number, string, string | undefined] {
  assert.ok('refused' in admission, 'refused');
  const { status, message, headers } = admission.refused;
  const which = ['as many agents', 'a client may send', 'at once'].find((words) => message.includes(words)) ?? message;
  return [status, which, headers?.['Retry-After']];
}

test('a reader has MCP_READER_CONCURRENCY places at once; one given back is free again, and only once', async () => {
  const admission = new McpAdmission();
  const places = await Promise.all(Array.from({ length: MCP_READER_CONCURRENCY }, () => admission.enter('reader-a')));
  const [first] = places.map(leaveOf);
  assert.deepEqual(refusalOf(await admission.enter('reader-a')), [429, 'at once', '1']);
  // Another reader is not held up by the first.
  leaveOf(await admission.enter('reader-b'));
  first?.();
  first?.();
  leaveOf(await admission.enter('reader-a'));
  assert.deepEqual(refusalOf(await admission.enter('reader-a')), [429, 'at once', '1']);
});

test('the instance has MCP_CONCURRENCY places, every reader’s together', async () => {
  const admission = new McpAdmission();
  const places = await Promise.all(Array.from({ length: MCP_CONCURRENCY }, (_, index) => admission.enter(`reader-${index}`)));
  const [first] = places.map(leaveOf);
  assert.deepEqual(refusalOf(await admission.enter('one-more')), [503, 'as many agents', '1']);
  first?.();
  leaveOf(await admission.enter('one-more'));
});

test('a reader sends MCP_READER_RATE.requests a window, answered or refused, and is then told when to come back', async () => {
  const admission = new McpAdmission();
  for (let index = 0; index < MCP_READER_RATE.requests; index += 1) leaveOf(await admission.enter('reader-a'))();
  const refused = await admission.enter('reader-a');
  assert.ok('refused' in refused);
  assert.match(refused.refused.message, /a client may send/);
  const retryAfter = Number(refused.refused.headers?.['Retry-After']);
  assert.ok(retryAfter >= 1 && retryAfter <= MCP_READER_RATE.seconds);
  leaveOf(await admission.enter('reader-b'))();
});

test('a batch is a JSON array, counted; anything else is left to the SDK', () => {
  assert.equal(batchLength('[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]'), 2);
  assert.equal(batchLength('  \n[]'), 0);
  assert.equal(batchLength('{"jsonrpc":"2.0","id":1,"method":"ping"}'), null);
  assert.equal(batchLength('[1, 2'), null);
  assert.equal(batchLength(''), null);
});

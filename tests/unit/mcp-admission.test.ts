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

test('a reader has MCP_READER_CONCURRENCY places at once; one given back is free again, and only once', async () => {
  const admission = new McpAdmission();
  const places = await Promise.all(Array.from({ length: MCP_READER_CONCURRENCY }, () => admission.enter('reader-a')));
  const [first] = places.map(leaveOf);
  assert.deepEqual(await admission.enter('reader-a'), { refused: 'reader', retryAfterSeconds: 1 });
  // Another reader is not held up by the first.
  leaveOf(await admission.enter('reader-b'));
  first?.();
  first?.();
  leaveOf(await admission.enter('reader-a'));
  assert.deepEqual(await admission.enter('reader-a'), { refused: 'reader', retryAfterSeconds: 1 });
});

test('the instance has MCP_CONCURRENCY places, every reader’s together', async () => {
  const admission = new McpAdmission();
  const places = await Promise.all(Array.from({ length: MCP_CONCURRENCY }, (_, index) => admission.enter(`reader-${index}`)));
  const [first] = places.map(leaveOf);
  assert.deepEqual(await admission.enter('one-more'), { refused: 'instance', retryAfterSeconds: 1 });
  first?.();
  leaveOf(await admission.enter('one-more'));
});

test('a reader sends MCP_READER_RATE.requests a window, answered or refused, and is then told when to come back', async () => {
  const admission = new McpAdmission();
  for (let index = 0; index < MCP_READER_RATE.requests; index += 1) leaveOf(await admission.enter('reader-a'))();
  const refused = await admission.enter('reader-a');
  assert.ok('refused' in refused);
  assert.equal(refused.refused, 'rate');
  assert.ok(refused.retryAfterSeconds >= 1 && refused.retryAfterSeconds <= MCP_READER_RATE.seconds);
  leaveOf(await admission.enter('reader-b'))();
});

test('a batch is a JSON array, counted; anything else is left to the SDK', () => {
  assert.equal(batchLength('[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","id":2,"method":"ping"}]'), 2);
  assert.equal(batchLength('  \n[]'), 0);
  assert.equal(batchLength('{"jsonrpc":"2.0","id":1,"method":"ping"}'), null);
  assert.equal(batchLength('[1, 2'), null);
  assert.equal(batchLength(''), null);
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { operationAt, operationIdAt, OPERATIONS } from '../../src/server/api/registry.ts';

test('the operation id of a request, as logs and metrics name it, is the one dispatch serves it with', () => {
  for (const { method, path, operationId } of OPERATIONS) {
    assert.equal(operationIdAt(method, path), operationId);
    assert.equal(operationIdAt(method, `${path}/`), operationAt(method, `${path}/`)?.operationId);
    if (method === 'GET') assert.equal(operationIdAt('HEAD', path), operationId);
  }
  assert.equal(operationIdAt('DELETE', '/api/votes'), undefined);
  assert.equal(operationIdAt('GET', '/api/nothing'), undefined);
});

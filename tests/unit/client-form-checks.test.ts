import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { checkFields, ownFields } from '../../src/site/client/form-checks.ts';

describe('the checks every write carries besides its fields', () => {
  test('the captcha’s token, the page’s stamp and what the honeypot holds, under the API’s names', () => {
    assert.deepEqual(checkFields('token', 'stamp', 'filled by a robot'), {
      captchaToken: 'token',
      formStamp: 'stamp',
      honeypot: 'filled by a robot',
    });
  });

  test('none that is empty: the API takes an absent check as none', () => {
    assert.deepEqual(checkFields(undefined, null, ''), {});
    assert.deepEqual(checkFields('', 'stamp', ''), { formStamp: 'stamp' });
  });
});

describe('a form’s own fields, as its write sends them', () => {
  test('each field as typed; blank ones, and those the captcha widgets add, left out', () => {
    const typed: [string, string][] = [
      ['requestTitle', '  Right-to-left layouts '],
      ['details', '   '],
      ['email', ''],
      ['cf-turnstile-response', 'turnstile token'],
      ['altcha', 'altcha payload'],
    ];
    assert.deepEqual(ownFields(typed), { requestTitle: '  Right-to-left layouts ' });
  });

  test('the page’s path, when the form asks for it', () => {
    assert.deepEqual(ownFields([['description', 'Broken']], '/fr/articles/x'), { description: 'Broken', pagePath: '/fr/articles/x' });
  });

  test('a file is no field of a write', () => {
    const data = new FormData();
    data.append('description', 'See the picture');
    data.append('picture', new Blob(['png']), 'shot.png');
    assert.deepEqual(ownFields(data), { description: 'See the picture' });
  });
});

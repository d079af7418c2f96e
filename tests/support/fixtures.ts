/**
 * Where the page linked from the English "next-century" listens, on loopback: the Webmention test's receiver
 * (tests/http/webmention.test.ts), which must be where the built article says, so its port is fixed.
 */
export const WEBMENTION_RECEIVER = 'http://localhost:47913';

/**
 * Articles the tests add to a copy of the real content: one of each kind the
 * rules treat differently.
 */
export const FIXTURE_ARTICLES: Record<string, string> = {
  // Only in English: every other language falls back to it.
  'content/articles/only-in-english/en.md': `---
title: "Only in English"
date: 2020-01-02
excerpt: "An old note nobody translated."
---

This note exists in English only, so every language lists it in English.
`,
  'content/articles/draft-notes/en.md': `---
title: "Draft notes"
date: 2020-01-03
excerpt: "Not ready."
draft: true
---

A draft is never visible.
`,
  // Dated far ahead: hidden until a server's clock reaches that day.
  'content/articles/next-century/en.md': `---
title: "Next century"
date: 2099-01-01
excerpt: "Written ahead of time."
---

Scheduled for the first day of 2099.

[A page elsewhere](${WEBMENTION_RECEIVER}/page) says more.
`,
  'content/articles/next-century/ar.md': `---
title: "القرن القادم"
date: 2099-01-01
excerpt: "كُتب قبل أوانه."
---

مجدول لليوم الأول من عام 2099.
`,
  // An old version kept beside the current one.
  'content/articles/only-in-english.v1/en.md': `---
title: "Only in English, first version"
date: 2020-01-01
excerpt: "Superseded."
---

The first version, kept for the record and never shown.
`,
};

/**
 * An operation that fails on purpose, to see the API frame answer a server
 * error: added to the dispatcher of the test site's entry only, so the
 * documents still describe the real operations.
 */
export const FAILING_OPERATION = {
  'src/server/entry/test-failure.ts': `import { OPERATIONS } from '../api/registry.ts';
import type { OperationDefinition } from '../api/definition.ts';

export const WITH_FAILING_OPERATION: readonly OperationDefinition[] = [
  ...OPERATIONS,
  {
    ...OPERATIONS[0]!,
    operationId: 'testFailure',
    path: '/api/test-failure',
    handle: () => {
      throw new Error('failing on purpose');
    },
  },
];
`,
};

/** The test site's entry dispatches with the failing operation too; fails loudly when the entry no longer reads as expected. */
export function dispatchWithFailingOperation(entry: string): string {
  const call = 'dispatchApi({ request, socketAddress, connection, services: apiServices })';
  if (!entry.includes(call)) throw new Error(`the entry no longer calls ${call}`);
  return `import { WITH_FAILING_OPERATION } from './test-failure.ts';\n${entry.replace(call, `dispatchApi({ request, socketAddress, connection, services: apiServices }, WITH_FAILING_OPERATION)`)}`;
}

/**
 * The list sizes the test site is built with, small enough that its five
 * published articles fill three archive pages and overflow the home page, the
 * feeds once the scheduled one is published (six), and make /sitemap.xml an
 * index: each replaces the constant of that name in its file
 * (src/server/articles/lists.ts, src/server/discovery/sitemap.ts).
 */
export const FIXTURE_LIST_SIZES = {
  'src/server/articles/lists.ts': { HOME_LATEST: 3, ARCHIVE_PAGE_SIZE: 2, FEED_LATEST: 5 },
  'src/server/discovery/sitemap.ts': { SITEMAP_MAX_URLS: 40 },
} as const;

/** A module's source with each `const NAME = <number>;` of `sizes` set to its value; fails loudly when one is missing. */
export function withSizes(source: string, sizes: Readonly<Record<string, number>>): string {
  let changed = source;
  for (const [name, value] of Object.entries(sizes)) {
    const line = new RegExp(`^((?:export )?const ${name} = )[\\d_]+;$`, 'm');
    if (!line.test(changed)) throw new Error(`no line "const ${name} = <number>;" to lower`);
    changed = changed.replace(line, `$1${value};`);
  }
  return changed;
}

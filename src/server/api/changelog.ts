/** One published version of the API. */
export interface ChangelogEntry {
  version: string;
  /** YYYY-MM-DD */
  date: string;
  /** Markdown, one change each. */
  changes: readonly string[];
}

/** The API's versions, newest first: the first is API_VERSION, which a unit test checks. */
export const CHANGELOG: readonly ChangelogEntry[] = [
  {
    version: '1.0.0',
    date: '2026-11-22',
    changes: [
      'First stable version, without authentication: articles (`getArticles`), city search (`searchCities`) and the identity document (`getAgentIdentity`) to read; comments, votes, topic requests, bug reports and city submissions to write from the site’s own pages.',
      'Every answer carries `API-Version` and `RateLimit-Policy`; writes carry their `RateLimit` headers, and every error is JSON.',
      'Discovery documents: /openapi.json, /llms.txt, /agents.md, /auth.md, the OAuth metadata and API catalog under /.well-known/, and this page.',
    ],
  },
];

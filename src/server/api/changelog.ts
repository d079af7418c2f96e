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
    version: '1.1.0',
    date: '2026-11-24',
    changes: [
      '`searchCities` also finds cities by their other names, in every script (München, Cologne, 東京, Москва, ميونخ, 뮌헨, मुंबई): when the main names match fewer than 8 cities, the list is filled with cities matching on another name, by the same tiers, and such a result carries the new field `matchedName`. Ranking on main names is unchanged.',
      '`searchCities` takes the new optional parameter `lang` (one of the fifteen codes, English by default): `countryName` is given in that language.',
      'Additive only: a client of 1.0.0 reads every answer as before.',
    ],
  },
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

import type { CityResult, CitySearchResponse } from '../cities/city-result.ts';
import { EXAMPLE_SITE } from './definition.ts';

/** Example bodies of /openapi.json and /developers; the unit tests parse each with its schema. */

const articleItem = {
  slug: 'writing-in-plain-text',
  title: 'Why I write in plain text',
  date: '2026-03-14',
  excerpt: 'Every essay I have written in the last ten years lives in one folder of Markdown files under Git.',
  readingTime: 4,
  lang: 'en',
  url: `${EXAMPLE_SITE}/articles/writing-in-plain-text`,
  outdated: false,
};

export const ARTICLE_LIST = { site: EXAMPLE_SITE, lang: 'en', count: 1, articles: [articleItem] };

export const SINGLE_ARTICLE = {
  site: EXAMPLE_SITE,
  lang: 'en',
  article: {
    ...articleItem,
    content: 'Every essay, note and draft I have written in the last ten years lives in one folder.\n\n## Why plain text\n\n…',
  },
};

/** Zürich as the city search answers it: the example of the documents, and what the tests expect, written once. */
export const ZURICH = {
  id: '2657896',
  name: 'Zürich',
  country: 'CH',
  countryName: 'Switzerland',
  region: 'Zurich',
  lat: 47.36667,
  lon: 8.55,
  population: 341730,
  match: 'exact',
} as const satisfies CityResult;

export const CITY_SEARCH = { query: 'zurich', count: 1, results: [ZURICH] } satisfies CitySearchResponse;

/** `q=münchen&lang=de`: a main name holds the word, then Munich by its German name. */
export const CITY_SEARCH_BY_ALTERNATE_NAME = {
  query: 'münchen',
  count: 2,
  results: [
    {
      id: '2922582',
      name: 'Garching bei München',
      country: 'DE',
      countryName: 'Deutschland',
      region: 'Bavaria',
      lat: 48.24896,
      lon: 11.65101,
      population: 15303,
      match: 'word',
    },
    {
      id: '2867714',
      name: 'Munich',
      matchedName: 'München',
      country: 'DE',
      countryName: 'Deutschland',
      region: 'Bavaria',
      lat: 48.13743,
      lon: 11.57549,
      population: 1260391,
      match: 'exact',
    },
  ],
} satisfies CitySearchResponse;

/** A city submission for Zürich, as the city form sends it. */
export const ZURICH_SUBMISSION = {
  city: ZURICH.name,
  country: ZURICH.country,
  cityId: ZURICH.id,
  currency: 'CHF',
  netPay: 6200,
  rent: 1900,
  beerPrice: 7.5,
};

export const AGENT_IDENTITY = {
  identity_types_supported: ['anonymous'],
  authentication: 'none',
  documentation: `${EXAMPLE_SITE}/auth.md`,
};

export const COMMENT = {
  id: 'Qm9vdHN0cmFwcGVk',
  articleSlug: 'the-price-of-a-beer',
  parentId: null,
  depth: 1,
  author: 'Teal Heron',
  body: 'In Lisbon the beer is cheap, but so is the pay.',
  createdAt: '2026-11-22T09:30:00.000Z',
  score: 0,
  status: 'published',
};

export const REPLY = { ...COMMENT, id: 'UmVwbHlUb0Jvb3Rz', parentId: COMMENT.id, depth: 2, body: 'And the rent is not.' };

/** A comment held for the owner's approval (MODERATION): no one else sees it until then. */
export const PENDING_COMMENT = { ...COMMENT, id: 'V2FpdGluZ0Zvck9r', body: 'My first comment here.', status: 'pending' };

export const OK = { ok: true, id: 'Tm9uY2VJZDEyMzQ1' };

/** A topic request listed at once, and one held for the owner's approval (MODERATION). */
export const TOPIC_REQUEST_OK = { ...OK, status: 'pending' };
export const WAITING_TOPIC_REQUEST_OK = { ...OK, status: 'waiting' };

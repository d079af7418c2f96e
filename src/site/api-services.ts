import type { ApiServices } from '../server/api/definition.ts';
import { todayUtc } from '../server/articles/catalog.ts';
import { articleCatalog } from '../server/articles/content-collection.ts';
import { bundledCityIndex } from '../server/cities/city-index.ts';
import { setting } from '../server/settings/environment.ts';
import { runtime } from '../server/runtime/runtime.ts';
import { siteName } from './content.ts';

/** The API's services in this build: the writer's articles from the content collection, the bundled cities, the runtime. */
export const apiServices: ApiServices = {
  site: setting('SITE_URL'),
  name: siteName,
  published: async () => (await articleCatalog()).on(todayUtc()),
  runtime,
  cities: bundledCityIndex,
};

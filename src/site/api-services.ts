import type { ApiServices } from '../server/api/definition.ts';
import { publishedView } from './published.ts';
import { bundledCityIndex } from '../server/cities/city-index.ts';
import { setting } from '../server/settings/environment.ts';
import { runtime } from '../server/runtime/runtime.ts';
import { siteName } from './content.ts';

/** The API's services in this build: the writer's articles from the content collection, the bundled cities, the runtime. */
export const apiServices: ApiServices = {
  site: setting('SITE_URL'),
  name: siteName,
  published: publishedView,
  runtime,
  cities: bundledCityIndex,
};

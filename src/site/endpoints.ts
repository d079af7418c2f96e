import { publishedToday } from '../server/articles/collection.ts';
import { readerEndpoints, type Endpoint } from '../server/writes/endpoints.ts';

/** The reader endpoints of this build, shared by the Astro routes and the front server. */
export const endpoints = readerEndpoints(publishedToday);

/** The endpoint a route serves; a typo in the key fails the build, not a request. */
export function endpoint(key: string): Endpoint {
  const found = endpoints.get(key);
  if (!found) throw new Error(`No reader endpoint ${key}`);
  return found;
}

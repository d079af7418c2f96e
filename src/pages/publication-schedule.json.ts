import type { APIRoute } from 'astro';
import { articleCatalog } from '../server/articles/content-collection.ts';

// Read by the front server at start-up (src/server/front/schedule.ts) and never served.
export const prerender = true;

export const GET: APIRoute = async () => Response.json({ articles: (await articleCatalog()).scheduled });

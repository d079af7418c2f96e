import type { APIRoute } from 'astro';
import { answerArticles } from '../../server/articles/api.ts';
import { todayUtc } from '../../server/articles/catalog.ts';
import { articleCatalog } from '../../server/articles/collection.ts';
import { siteUrl } from '../../server/config.ts';
import { methodNotAllowed } from '../../server/http/api-frame.ts';

export const prerender = false;

export const GET: APIRoute = async ({ request }) => answerArticles(request, (await articleCatalog()).on(todayUtc()), siteUrl());

export const ALL = methodNotAllowed(['GET', 'HEAD']);

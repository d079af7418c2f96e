import type { APIRoute } from 'astro';
import { answerCitySearch } from '../../server/cities/api.ts';
import { bundledCityIndex } from '../../server/cities/city-index.ts';
import { methodNotAllowed } from '../../server/http/api-frame.ts';

export const prerender = false;

export const GET: APIRoute = ({ request }) => answerCitySearch(request, bundledCityIndex());

export const ALL = methodNotAllowed(['GET', 'HEAD']);

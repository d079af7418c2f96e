import type { APIRoute } from 'astro';
import { methodNotAllowed } from '../../server/http/api-frame.ts';
import { endpoint } from '../../site/endpoints.ts';

export const prerender = false;

const create = endpoint('POST /api/comments');
export const POST: APIRoute = ({ request, clientAddress }) => create(request, clientAddress);

export const ALL = methodNotAllowed(['POST']);

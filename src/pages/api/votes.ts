import type { APIRoute } from 'astro';
import { methodNotAllowed } from '../../server/http/api-frame.ts';
import { endpoint } from '../../site/endpoints.ts';

export const prerender = false;

const viewerVotes = endpoint('GET /api/votes');
const castVote = endpoint('POST /api/votes');
export const GET: APIRoute = ({ request, clientAddress }) => viewerVotes(request, clientAddress);
export const POST: APIRoute = ({ request, clientAddress }) => castVote(request, clientAddress);

export const ALL = methodNotAllowed(['GET', 'HEAD', 'POST']);

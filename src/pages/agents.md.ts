import type { APIRoute } from 'astro';
import { agentsMd } from '../server/discovery/agents.ts';
import { siteFacts } from '../site/published.ts';
import { markdown } from '../site/markdown-response.ts';

export const prerender = true;

export const GET: APIRoute = async () => markdown(agentsMd(await siteFacts()));

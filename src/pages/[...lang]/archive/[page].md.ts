import type { APIRoute } from 'astro';
import { archiveMarkdown, archivePage } from '../../../site/archive.ts';
import { markdown } from '../../../site/markdown-response.ts';

export const prerender = false;

export const GET: APIRoute = async ({ params }) => {
  const archive = await archivePage(params.lang, params.page);
  return archive ? markdown(archiveMarkdown(archive)) : new Response(null, { status: 404 });
};

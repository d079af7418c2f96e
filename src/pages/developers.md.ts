import type { APIRoute } from 'astro';
import { developerDocs } from '../server/api/developer-docs.ts';
import { developersMarkdown } from '../server/api/developers-markdown.ts';
import { mcpDocs, mcpMarkdown } from '../server/mcp/docs.ts';
import { setting } from '../server/settings/environment.ts';
import { markdown } from '../site/markdown-response.ts';

export const prerender = true;

export const GET: APIRoute = () =>
  markdown(developersMarkdown(developerDocs(setting('SITE_URL')), [mcpMarkdown(mcpDocs(setting('SITE_URL')))]));

import type { APIRoute } from 'astro';
import { languageFromParam } from '../../i18n/languages.ts';
import { uiStrings } from '../../i18n/ui.ts';
import { keptByRevision } from '../../server/http/cache-rules.ts';
import { runtime } from '../../server/runtime/runtime.ts';
import { markdown } from '../../site/markdown-response.ts';
import { literalText } from '../../site/markdown-twins.ts';

export const prerender = false;

export const GET: APIRoute = async ({ params }) => {
  const lang = languageFromParam(params['lang']);
  if (lang === null) return new Response('Not found\n', { status: 404, headers: { 'Content-Type': 'text/plain; charset=utf-8' } });
  const t = uiStrings(lang);
  const { store } = await runtime();
  const revision = await store.revision('topic-requests');
  const requests = await store.listTopicRequests();
  const list = requests.map((request) => {
    const status = t(`answers.status.${request.status}`);
    const shown = request.answerUrl ? `[${status}](<${request.answerUrl}>)` : status;
    return `- ${literalText(request.requestTitle)} (${request.createdAt.slice(0, 10)}, ${shown})`;
  });
  const response = markdown(`# ${t('answers.title')}\n\n${list.length > 0 ? list.join('\n') : t('answers.empty')}\n`);
  keptByRevision(response.headers, 'topic-requests', revision);
  return response;
};

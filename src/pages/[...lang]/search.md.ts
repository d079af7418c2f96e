import type { APIRoute, InferGetStaticPropsType } from 'astro';
import { uiStrings } from '../../i18n/ui.ts';
import { pageTwin } from '../../site/markdown-twins.ts';
import { markdown } from '../../site/markdown-response.ts';
import { languageStaticPaths } from '../../site/content.ts';

export const prerender = true;

export const getStaticPaths = languageStaticPaths;

export const GET: APIRoute<InferGetStaticPropsType<typeof getStaticPaths>> = ({ props: { lang } }) => {
  const t = uiStrings(lang);
  const body = [
    t('search.description'),
    `The search box runs in the browser over an index built with the site. Software agents: \`GET /api/articles?lang=${lang}\` lists every article of this language, and each article page's Markdown twin holds its whole text.`,
  ].join('\n\n');
  return markdown(pageTwin(t('search.title'), body));
};

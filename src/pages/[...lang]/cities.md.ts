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
    t('cities.intro'),
    `## ${t('cities.formTitle')}`,
    'Search: `GET /api/city-search?q=<name>&country=<ISO 3166-1 alpha-2>`. Submit: `POST /api/city-submissions` from this page (see /developers).',
    t('cities.attribution'),
  ].join('\n\n');
  return markdown(pageTwin(t('cities.title'), body));
};

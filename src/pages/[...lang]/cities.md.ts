import type { APIRoute } from 'astro';
import { LANGUAGE_CODES, languageParam, type LanguageCode } from '../../i18n/languages.ts';
import { uiStrings } from '../../i18n/ui.ts';
import { pageTwin } from '../../site/markdown-twins.ts';
import { markdown } from '../../site/markdown-response.ts';

export const prerender = true;

export function getStaticPaths() {
  return LANGUAGE_CODES.map((lang) => ({ params: { lang: languageParam(lang) }, props: { lang } }));
}

export const GET: APIRoute = ({ props }) => {
  const t = uiStrings((props as { lang: LanguageCode }).lang);
  const body = [
    t('cities.intro'),
    `## ${t('cities.formTitle')}`,
    'Search: `GET /api/city-search?q=<name>&country=<ISO 3166-1 alpha-2>`. Submit: `POST /api/city-submissions` from this page (see /developers).',
    t('cities.attribution'),
  ].join('\n\n');
  return markdown(pageTwin(t('cities.title'), body));
};

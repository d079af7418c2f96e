import type { APIRoute } from 'astro';
import { uiStrings } from '../../i18n/ui.ts';
import { articleMeta } from '../../site/format.ts';
import { homePage } from '../../site/home.ts';
import { setting } from '../../server/settings/environment.ts';
import { homeTwin } from '../../site/markdown-twins.ts';
import { markdown } from '../../site/markdown-response.ts';

export const prerender = false;

export const GET: APIRoute = async ({ params }) => {
  const home = await homePage(params.lang);
  if (!home) return new Response(null, { status: 404 });
  const t = uiStrings(home.lang);
  const links = home.articles.map((article) => ({
    title: article.title,
    url: article.url,
    meta: articleMeta(article.date, article.readingTime, home.lang),
    excerpt: article.excerpt,
  }));
  const archive = { label: t('home.archive'), url: `${setting('SITE_URL')}${home.archive}` };
  return markdown(homeTwin(home.page.title, home.page.body, t('home.latest'), links, t('home.empty'), archive));
};

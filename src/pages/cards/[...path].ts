// A page's social card (Open Graph image), drawn at its first request and
// kept on disk: the build draws none (src/server/social/card-files.ts).
import type { APIRoute } from 'astro';
import { CACHE_CONTROL } from '../../server/http/cache-rules.ts';
import { CardFiles } from '../../server/social/card-files.ts';
import { cardVersion, parseCardPath } from '../../server/social/card-path.ts';
import { setting } from '../../server/settings/environment.ts';
import { cardTextOf } from '../../site/social-cards.ts';

export const prerender = false;

const cards = new CardFiles(setting('CARDS_DIR'));

export const GET: APIRoute = async ({ url }) => {
  const card = parseCardPath(url.pathname);
  const text = card && (await cardTextOf(card.name, card.lang));
  // A version that is not the card's now (an older title) is no card: its URL is named by what it shows.
  if (!card || !text || cardVersion(text) !== card.version) {
    return new Response('Not found\n', {
      status: 404,
      headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
    });
  }
  return new Response(new Uint8Array(await cards.get(text)), {
    headers: { 'Content-Type': 'image/png', 'Cache-Control': CACHE_CONTROL.hashedAsset },
  });
};

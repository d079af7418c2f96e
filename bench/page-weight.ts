import { get } from 'node:http';

// The JavaScript each page ships, as a browser fetches it (gzip), with
// every island; the captcha is off, as the bench's site runs.
const PAGES = ['/', '/articles/the-price-of-a-beer', '/ar/articles/the-price-of-a-beer', '/cities', '/answers', '/search', '/developers'];
const ARTICLE_GOAL_BYTES = 10 * 1024;

/** The bytes a file takes on the wire with gzip: node:http, which leaves the body as sent. */
function gzippedSize(url: string): Promise<number> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { 'Accept-Encoding': 'gzip' } }, (response) => {
      let size = 0;
      response.on('data', (chunk: Buffer) => (size += chunk.length));
      response.on('end', () => {
        resolve(size);
      });
    }).on('error', reject);
  });
}

/** The scripts a page loads, and what they weigh once gzipped; returns the number of goals missed. */
export async function benchPageWeight(site: string): Promise<number> {
  let missed = 0;
  console.log('JavaScript each page ships, gzipped (every island; captcha off):');
  for (const path of PAGES) {
    const html = await (await fetch(`${site}${path}`)).text();
    const scripts = [...html.matchAll(/<script[^>]*\bsrc="(\/[^"]+)"/g)].map(([, src = '']) => src);
    const sizes = await Promise.all(scripts.map((src) => gzippedSize(`${site}${src}`)));
    const total = sizes.reduce((sum, size) => sum + size, 0);
    const isArticle = path.includes('/articles/');
    const goal = isArticle ? ` (${total < ARTICLE_GOAL_BYTES ? 'goal met' : 'GOAL MISSED'}: under ${ARTICLE_GOAL_BYTES / 1024} KB)` : '';
    if (isArticle && total >= ARTICLE_GOAL_BYTES) missed += 1;
    console.log(`  ${path.padEnd(36)} ${(total / 1024).toFixed(1).padStart(6)} KB in ${scripts.length} file(s)${goal}`);
  }
  return missed;
}

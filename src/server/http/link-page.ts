import { escapeXml as escapeHtml } from './xml.ts';

/**
 * The small pages a signed link opens (the owner's moderation links, a
 * subscriber's newsletter links): never kept by anyone, never indexed, each
 * one person's; no script, one inline style.
 */
export const LINK_PAGE_HEADERS = {
  'Content-Type': 'text/html; charset=utf-8',
  'Cache-Control': 'private, no-store',
  'X-Robots-Tag': 'noindex, nofollow',
};

/** A link's page in `lang` (written `dir`), titled `title`, holding `content` (HTML, escaped by the caller). */
export function linkPage(status: number, { lang, dir }: { lang: string; dir: string }, title: string, content: string): Response {
  const html = `<!doctype html>
<html lang="${lang}" dir="${dir}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="color-scheme" content="light dark">
<title>${escapeHtml(title)}</title>
<style>body{font:1rem/1.5 system-ui,sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem}blockquote{white-space:pre-wrap;border-inline-start:3px solid #888;margin:1rem 0;padding-inline-start:1rem}button{font:inherit;padding:.4rem 1rem}</style>
</head>
<body>
<main>
<h1>${escapeHtml(title)}</h1>
${content}
</main>
</body>
</html>
`;
  return new Response(html, { status, headers: LINK_PAGE_HEADERS });
}

/** A paragraph of plain text. */
export function paragraph(text: string): string {
  return `<p>${escapeHtml(text)}</p>`;
}

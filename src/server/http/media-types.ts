const TYPES: Record<string, string> = {
  html: 'text/html; charset=utf-8',
  md: 'text/markdown; charset=utf-8',
  txt: 'text/plain; charset=utf-8',
  css: 'text/css; charset=utf-8',
  js: 'text/javascript; charset=utf-8',
  mjs: 'text/javascript; charset=utf-8',
  json: 'application/json; charset=utf-8',
  xml: 'application/xml; charset=utf-8',
  atom: 'application/atom+xml; charset=utf-8',
  svg: 'image/svg+xml',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  avif: 'image/avif',
  gif: 'image/gif',
  ico: 'image/x-icon',
  woff2: 'font/woff2',
  webmanifest: 'application/manifest+json',
};

/** Well-known documents (RFC 8615) are mostly named without an extension, and some have a type of their own: their type goes by name. */
const WELL_KNOWN_TYPES: Record<string, string> = {
  'ai-catalog.json': 'application/ai-catalog+json',
  'api-catalog': 'application/linkset+json; profile="https://www.rfc-editor.org/info/rfc9727"',
  'oauth-authorization-server': 'application/json; charset=utf-8',
  'oauth-protected-resource': 'application/json; charset=utf-8',
};

/** The Content-Type of a file by its name, else by its extension. */
export function mediaTypeOf(path: string): string {
  const wellKnown = WELL_KNOWN_TYPES[/(?:^|[\\/])\.well-known[\\/]([^\\/]+)$/.exec(path)?.[1] ?? ''];
  if (wellKnown) return wellKnown;
  const extension = /\.([a-z0-9]+)$/i.exec(path)?.[1]?.toLowerCase() ?? '';
  return TYPES[extension] ?? 'application/octet-stream';
}

/** Whether compressing this type saves bytes (images other than SVG are compressed already). */
export function isCompressible(contentType: string): boolean {
  return /^(text\/|application\/(json|xml|atom\+xml|manifest\+json|javascript)|image\/svg\+xml)/.test(contentType);
}

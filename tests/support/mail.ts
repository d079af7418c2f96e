/**
 * A received email read as a mail client reads it, enough for the tests:
 * headers unfolded (encoded words decoded), and the text and HTML parts
 * decoded from quoted-printable or base64, in a multipart/alternative
 * message or a single part.
 */
export interface ReadMail {
  /** Each header by its lower-cased name, unfolded and decoded; a repeated one keeps its first. */
  headers: Map<string, string>;
  text: string;
  html: string;
}

function decodeQuotedPrintable(body: string): string {
  const bytes: number[] = [];
  const soft = body.replace(/=\r?\n/g, '');
  for (let i = 0; i < soft.length; i++) {
    const hex = soft[i] === '=' ? /^[0-9A-F]{2}/i.exec(soft.slice(i + 1, i + 3)) : null;
    if (hex) {
      bytes.push(parseInt(hex[0], 16));
      i += 2;
    } else bytes.push(...Buffer.from(soft[i] ?? '', 'utf8'));
  }
  return Buffer.from(bytes).toString('utf8');
}

function decodeWords(value: string): string {
  return value
    .replace(/\?=\s+=\?/g, '?==?')
    .replace(/=\?utf-8\?([qb])\?([^?]*)\?=/gi, (_whole, encoding: string, text: string) =>
      encoding.toLowerCase() === 'b' ? Buffer.from(text, 'base64').toString('utf8') : decodeQuotedPrintable(text.replace(/_/g, ' ')),
    );
}

function headersOf(block: string): Map<string, string> {
  const headers = new Map<string, string>();
  for (const line of block.replace(/\r?\n[ \t]+/g, ' ').split(/\r?\n/)) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim().toLowerCase();
    if (colon > 0 && !headers.has(name)) headers.set(name, decodeWords(line.slice(colon + 1).trim()));
  }
  return headers;
}

function split(raw: string): { headers: Map<string, string>; body: string } {
  const at = raw.search(/\r?\n\r?\n/);
  return { headers: headersOf(raw.slice(0, at)), body: raw.slice(at).replace(/^\r?\n\r?\n/, '') };
}

function decoded(headers: Map<string, string>, body: string): string {
  const encoding = headers.get('content-transfer-encoding')?.toLowerCase();
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(body);
  return body;
}

export function readMail(raw: string): ReadMail {
  const { headers, body } = split(raw);
  const boundary = /boundary="?([^";]+)"?/.exec(headers.get('content-type') ?? '')?.[1];
  const parts = boundary
    ? body
        .split(`--${boundary}`)
        .slice(1, -1)
        .map((part) => split(part.replace(/^\r?\n/, '')))
    : [{ headers, body }];
  const partOf = (type: string) => parts.find((part) => (part.headers.get('content-type') ?? 'text/plain').startsWith(type));
  const text = partOf('text/plain');
  const html = partOf('text/html');
  return { headers, text: text ? decoded(text.headers, text.body) : '', html: html ? decoded(html.headers, html.body) : '' };
}

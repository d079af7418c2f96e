/**
 * The rules on a comment's text that no schema can tell (docs/architecture.md,
 * "Readers, quotas and spam defence"): how many links it holds, and whether it repeats the
 * reader's previous comment.
 */

/** The most links (http(s) addresses, `www.` names, bare domains) one comment may hold (docs/owner.md, "Spam defence"). */
export const MAX_LINKS_PER_COMMENT = 3;

/**
 * The endings of a bare domain counted as a link (`example.com`,
 * `shop.example.co.uk/x`): the generic ones spam uses and the larger
 * countries'. A name with another ending (`Node.js`, `notes.md`) is text.
 */
const DOMAIN_ENDINGS = (
  'com net org info biz io co me app dev xyz top site online shop store club link live pro vip win bid click icu ly to cc tk ml ga cf gq ' +
  'ru su ua cn jp kr in de fr es it pt br nl pl tr uk us ca au eu ch at be se no dk'
).split(' ');

/** An address with its scheme or `www.`, or a bare domain with one of DOMAIN_ENDINGS, up to the next space. */
const LINK = new RegExp(
  `(?:\\bhttps?://|\\bwww\\.)[^\\s]+|\\b[\\p{L}\\p{N}-]+(?:\\.[\\p{L}\\p{N}-]+)*\\.(?:${DOMAIN_ENDINGS.join('|')})\\b(?![.\\p{L}\\p{N}-])(?:/[^\\s]*)?`,
  'giu',
);

/** How many links `text` holds. */
export function linkCount(text: string): number {
  return text.match(LINK)?.length ?? 0;
}

/** The text as compared with another: compatibility forms folded, lower case, every run of spaces one space. */
function comparable(text: string): string {
  return text.normalize('NFKC').toLowerCase().replace(/\s+/gu, ' ').trim();
}

/** Whether two comments say the same, whatever their case and spacing. */
export function sameText(one: string, other: string): boolean {
  return comparable(one) === comparable(other);
}

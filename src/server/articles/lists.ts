/**
 * How long each list of articles may grow: the archive only grows, so every
 * list a reader or a feed reader gets is cut to a fixed size, and the whole
 * archive is read page by page (docs/architecture.md, "Content and lists"). Each size is
 * written here once; the test site is built with smaller ones
 * (tests/support/fixtures.ts), so these lines keep the form
 * `export const NAME = <number>;`.
 */

/** The latest articles the home page of a language shows. */
export const HOME_LATEST = 10;

/** Articles on one archive page. */
export const ARCHIVE_PAGE_SIZE = 20;

/** The latest articles each RSS feed carries. */
export const FEED_LATEST = 30;

/** The latest articles each llms.txt indexes; older ones are in the archive's Markdown pages. */
export const LLMS_LATEST = 50;

/** One page of a paged list: its items, its number (from 1) and how many pages there are. */
export interface ListPage<T> {
  number: number;
  count: number;
  items: readonly T[];
}

/**
 * The pages of `items` (newest first) by `size`: page 1 the newest. An empty
 * list still has its page 1, which says there is nothing yet.
 */
export function pagesOf<T>(items: readonly T[], size: number = ARCHIVE_PAGE_SIZE): ListPage<T>[] {
  if (!Number.isInteger(size) || size < 1) throw new Error(`a page holds at least one item, not ${size}`);
  const count = Math.max(1, Math.ceil(items.length / size));
  return Array.from({ length: count }, (_, index) => ({
    number: index + 1,
    count,
    items: items.slice(index * size, (index + 1) * size),
  }));
}

/**
 * The page numbers a pager shows around page `number` of `count`: the first,
 * the last and `around` on each side of the current one, in order, with
 * `null` where numbers are skipped. At most `2 * around + 5` entries, however
 * many pages there are.
 */
export function pageWindow(number: number, count: number, around = 2): (number | null)[] {
  const shown = [...new Set([1, count, ...Array.from({ length: 2 * around + 1 }, (_, index) => number - around + index)])]
    .filter((page) => page >= 1 && page <= count)
    .sort((a, b) => a - b);
  return shown.flatMap((page, index) => (index > 0 && page - (shown[index - 1] ?? page) > 1 ? [null, page] : [page]));
}

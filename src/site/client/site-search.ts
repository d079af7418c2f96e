/** Pagefind's interface, as its script (/pagefind/pagefind-ui.js) defines it. */
interface PagefindUiOptions {
  element: HTMLElement;
  /** The part whose Pagefind runs the search, and the others it merges (src/build/search-index.ts). */
  bundlePath: string;
  mergeIndex: { bundlePath: string }[];
  showImages: boolean;
  showSubResults: boolean;
  resetStyles: boolean;
}

/** Where the build lists the search index's parts (src/build/search-index.ts, listSearchParts). */
const SEARCH_PARTS_URL = '/pagefind/parts.json';

/**
 * Starts the search box in `container`, focused, so that a reader can type
 * at once; results come from every part of the index, in the page's
 * language only. The input gets a visible label, the container's
 * `data-label`: Pagefind gives it only a title, which is no label to a
 * screen reader or to axe.
 */
export async function startSearch(container: HTMLElement | null): Promise<void> {
  const PagefindUI = (window as { PagefindUI?: new (options: PagefindUiOptions) => unknown }).PagefindUI;
  if (!container || !PagefindUI) return;
  const response = await fetch(SEARCH_PARTS_URL);
  const [first, ...others] = response.ok ? ((await response.json()) as string[]) : [];
  if (first === undefined) return;
  new PagefindUI({
    element: container,
    bundlePath: first,
    mergeIndex: others.map((bundlePath) => ({ bundlePath })),
    showImages: false,
    showSubResults: false,
    resetStyles: false,
  });
  const input = container.querySelector('input');
  if (!input) return;
  const label = document.createElement('label');
  label.htmlFor = input.id = 'site-search-input';
  label.textContent = container.dataset['label'] ?? '';
  container.prepend(label);
  input.focus();
}

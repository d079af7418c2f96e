/** Pagefind's interface, as its script (/pagefind/pagefind-ui.js) defines it. */
interface PagefindUiOptions {
  element: HTMLElement;
  showImages: boolean;
  showSubResults: boolean;
  resetStyles: boolean;
}

/**
 * Starts the search box in `container`, focused, so that a reader can type
 * at once; results come from the index of the page's language only.
 */
export function startSearch(container: HTMLElement | null): void {
  const PagefindUI = (window as { PagefindUI?: new (options: PagefindUiOptions) => unknown }).PagefindUI;
  if (!container || !PagefindUI) return;
  new PagefindUI({ element: container, showImages: false, showSubResults: false, resetStyles: false });
  container.querySelector('input')?.focus();
}

/** Pagefind's interface, as its script (/pagefind/pagefind-ui.js) defines it. */
interface PagefindUiOptions {
  element: HTMLElement;
  showImages: boolean;
  showSubResults: boolean;
  resetStyles: boolean;
}

/**
 * Starts the search box in `container`, focused, so that a reader can type
 * at once; results come from the index of the page's language only. The
 * input gets a visible label, the container's `data-label`: Pagefind gives
 * it only a title, which is no label to a screen reader or to axe.
 */
export function startSearch(container: HTMLElement | null): void {
  const PagefindUI = (window as { PagefindUI?: new (options: PagefindUiOptions) => unknown }).PagefindUI;
  if (!container || !PagefindUI) return;
  new PagefindUI({ element: container, showImages: false, showSubResults: false, resetStyles: false });
  const input = container.querySelector('input');
  if (!input) return;
  const label = document.createElement('label');
  label.htmlFor = input.id = 'site-search-input';
  label.textContent = container.dataset['label'] ?? '';
  container.prepend(label);
  input.focus();
}

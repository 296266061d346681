// Until the theme provider lands, the page follows the operating system's light/dark choice.

export type Theme = 'light' | 'dark';

export const DARK_SCHEME_QUERY = '(prefers-color-scheme: dark)';

type MatchMedia = (query: string) => MediaQueryList;

export function applyTheme(root: HTMLElement, theme: Theme): void {
  root.dataset.theme = theme;
}

function browserMatchMedia(): MatchMedia | null {
  return typeof window.matchMedia === 'function' ? window.matchMedia.bind(window) : null;
}

/**
 * Sets `data-theme` on `root` now and whenever the system preference changes; returns a stop
 * function. Without matchMedia (old browsers, jsdom) the theme stays light.
 */
export function followSystemTheme(
  root: HTMLElement = document.documentElement,
  matchMedia: MatchMedia | null = browserMatchMedia(),
): () => void {
  if (!matchMedia) {
    applyTheme(root, 'light');
    return () => undefined;
  }
  const query = matchMedia(DARK_SCHEME_QUERY);
  const sync = (): void => applyTheme(root, query.matches ? 'dark' : 'light');
  sync();
  query.addEventListener('change', sync);
  return () => query.removeEventListener('change', sync);
}

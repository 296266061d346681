import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import {
  AUTO_RECHECK_MS,
  THEME_COLOURS,
  THEME_STORAGE_KEY,
  autoThemeAt,
  parseThemeChoice,
  themeFor,
  type Theme,
  type ThemeChoice,
} from './theme-rules';

export interface ThemeState {
  theme: Theme;
  /** True while the theme follows the time of day. */
  autoMode: boolean;
  choice: ThemeChoice;
  /** Auto turns auto mode on and recomputes now; Light/Dark turn it off and set that theme. */
  choose: (choice: ThemeChoice) => void;
}

const ThemeContext = createContext<ThemeState | null>(null);

function readStoredChoice(): ThemeChoice {
  try {
    return parseThemeChoice(window.localStorage.getItem(THEME_STORAGE_KEY)) ?? 'auto';
  } catch {
    // Storage can be disabled (private mode, blocked cookies): fall back to auto.
    return 'auto';
  }
}

function storeChoice(choice: ThemeChoice): void {
  try {
    window.localStorage.setItem(THEME_STORAGE_KEY, choice);
  } catch {
    // Not stored: the choice still holds for this visit.
  }
}

/** Puts the theme on <html data-theme> and the browser chrome colour on meta theme-color. */
export function applyThemeToDocument(theme: Theme, root: HTMLElement = document.documentElement): void {
  root.dataset.theme = theme;
  for (const meta of document.querySelectorAll<HTMLMetaElement>('meta[name="theme-color"]')) {
    meta.content = THEME_COLOURS[theme];
    meta.removeAttribute('media');
  }
}

export interface ThemeProviderProps {
  children: ReactNode;
  /** Injected clock for tests; defaults to the local time. */
  now?: () => Date;
}

const systemNow = (): Date => new Date();

export function ThemeProvider({ children, now = systemNow }: ThemeProviderProps) {
  const [choice, setChoice] = useState<ThemeChoice>(readStoredChoice);
  const [theme, setTheme] = useState<Theme>(() => themeFor(choice, now()));

  const choose = useCallback(
    (next: ThemeChoice) => {
      setChoice(next);
      storeChoice(next);
      setTheme(themeFor(next, now()));
    },
    [now],
  );

  useEffect(() => {
    if (choice !== 'auto') return;
    setTheme(autoThemeAt(now()));
    const timer = setInterval(() => setTheme(autoThemeAt(now())), AUTO_RECHECK_MS);
    return () => clearInterval(timer);
  }, [choice, now]);

  // A choice made in another tab of the site applies here too.
  useEffect(() => {
    const onStorage = (event: StorageEvent): void => {
      if (event.key !== THEME_STORAGE_KEY) return;
      const next = parseThemeChoice(event.newValue) ?? 'auto';
      setChoice(next);
      setTheme(themeFor(next, now()));
    };
    window.addEventListener('storage', onStorage);
    return () => window.removeEventListener('storage', onStorage);
  }, [now]);

  useEffect(() => {
    applyThemeToDocument(theme);
  }, [theme]);

  const value = useMemo<ThemeState>(
    () => ({ theme, autoMode: choice === 'auto', choice, choose }),
    [theme, choice, choose],
  );
  return <ThemeContext.Provider value={value}>{children}</ThemeContext.Provider>;
}

export function useTheme(): ThemeState {
  const state = useContext(ThemeContext);
  if (!state) throw new Error('useTheme must be used inside a ThemeProvider');
  return state;
}

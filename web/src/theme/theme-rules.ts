// Theme rules from the product spec (sections 4 and 9): light from 06:00 to before 18:00 local
// time in auto mode, dark otherwise; Auto/Light/Dark choices; the manual choice is stored.

export type Theme = 'light' | 'dark';
export type ThemeChoice = 'auto' | Theme;

export const THEME_COLOURS: Readonly<Record<Theme, string>> = { dark: '#151924', light: '#ffffff' };
export const LIGHT_FROM_HOUR = 6;
export const DARK_FROM_HOUR = 18;
export const AUTO_RECHECK_MS = 60_000;
/** localStorage key of the visitor's choice: "auto", "light" or "dark". */
export const THEME_STORAGE_KEY = 'tickerbell:theme';
export const THEME_CHOICES: readonly ThemeChoice[] = ['auto', 'light', 'dark'];
export const THEME_CHOICE_LABELS: Readonly<Record<ThemeChoice, string>> = {
  auto: 'Auto',
  light: 'Light',
  dark: 'Dark',
};

/** The theme auto mode picks at this local time. */
export function autoThemeAt(now: Date): Theme {
  const hour = now.getHours();
  return hour >= LIGHT_FROM_HOUR && hour < DARK_FROM_HOUR ? 'light' : 'dark';
}

export function parseThemeChoice(value: unknown): ThemeChoice | undefined {
  return value === 'auto' || value === 'light' || value === 'dark' ? value : undefined;
}

export function themeFor(choice: ThemeChoice, now: Date): Theme {
  return choice === 'auto' ? autoThemeAt(now) : choice;
}

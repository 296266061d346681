import { act, fireEvent, render, screen } from '@testing-library/react';
import { ThemeChoiceControl } from './theme-choice';
import { ThemeProvider, useTheme } from './theme-provider';
import { THEME_STORAGE_KEY } from './theme-rules';

function ThemeProbe() {
  const { theme, autoMode } = useTheme();
  return (
    <p data-testid="probe">
      {theme} {autoMode ? 'auto' : 'manual'}
    </p>
  );
}

function renderTheme() {
  return render(
    <ThemeProvider>
      <ThemeProbe />
      <ThemeChoiceControl />
    </ThemeProvider>,
  );
}

const probe = (): string => screen.getByTestId('probe').textContent ?? '';

beforeEach(() => {
  jest.useFakeTimers();
  window.localStorage.clear();
});

afterEach(() => {
  jest.useRealTimers();
});

describe('ThemeProvider in auto mode', () => {
  it('is dark at 05:59 and turns light at 06:00 on the minute recheck', () => {
    jest.setSystemTime(new Date(2026, 10, 21, 5, 59, 0));
    renderTheme();
    expect(probe()).toBe('dark auto');
    expect(document.documentElement.dataset.theme).toBe('dark');

    act(() => jest.advanceTimersByTime(60_000));

    expect(probe()).toBe('light auto');
    expect(document.documentElement.dataset.theme).toBe('light');
  });

  it('is light at 17:59 and turns dark at 18:00 on the minute recheck', () => {
    jest.setSystemTime(new Date(2026, 10, 21, 17, 59, 0));
    renderTheme();
    expect(probe()).toBe('light auto');

    act(() => jest.advanceTimersByTime(60_000));

    expect(probe()).toBe('dark auto');
  });

  it('sets the theme colour to #151924 when dark and #ffffff when light', () => {
    const meta = document.createElement('meta');
    meta.name = 'theme-color';
    document.head.append(meta);
    jest.setSystemTime(new Date(2026, 10, 21, 5, 59, 0));
    renderTheme();
    expect(meta.content).toBe('#151924');

    act(() => jest.advanceTimersByTime(60_000));

    expect(meta.content).toBe('#ffffff');
    meta.remove();
  });
});

describe('theme choices', () => {
  it('Light turns auto mode off, sets light, stores the choice and ignores the clock', () => {
    jest.setSystemTime(new Date(2026, 10, 21, 17, 59, 0));
    renderTheme();

    fireEvent.click(screen.getByRole('radio', { name: 'Dark' }));
    expect(probe()).toBe('dark manual');
    fireEvent.click(screen.getByRole('radio', { name: 'Light' }));
    act(() => jest.advanceTimersByTime(120_000));

    expect(probe()).toBe('light manual');
    expect(window.localStorage.getItem(THEME_STORAGE_KEY)).toBe('light');
  });

  it('Auto turns auto mode on and recomputes immediately', () => {
    jest.setSystemTime(new Date(2026, 10, 21, 22, 0, 0));
    window.localStorage.setItem(THEME_STORAGE_KEY, 'light');
    renderTheme();
    expect(probe()).toBe('light manual');

    fireEvent.click(screen.getByRole('radio', { name: 'Auto' }));

    expect(probe()).toBe('dark auto');
    expect(window.localStorage.getItem(THEME_STORAGE_KEY)).toBe('auto');
  });

  it('starts from the stored manual choice', () => {
    jest.setSystemTime(new Date(2026, 10, 21, 12, 0, 0));
    window.localStorage.setItem(THEME_STORAGE_KEY, 'dark');
    renderTheme();

    expect(probe()).toBe('dark manual');
    expect(screen.getByRole('radio', { name: 'Dark' })).toBeChecked();
  });

  it('follows a choice made in another tab', () => {
    jest.setSystemTime(new Date(2026, 10, 21, 12, 0, 0));
    renderTheme();
    expect(probe()).toBe('light auto');

    act(() => {
      window.localStorage.setItem(THEME_STORAGE_KEY, 'dark');
      window.dispatchEvent(new StorageEvent('storage', { key: THEME_STORAGE_KEY, newValue: 'dark' }));
    });

    expect(probe()).toBe('dark manual');
    expect(document.documentElement.dataset.theme).toBe('dark');
    expect(screen.getByRole('radio', { name: 'Dark' })).toBeChecked();
  });
});

describe('useTheme', () => {
  it('throws outside the provider, saying it must be used inside it', () => {
    const spy = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(() => render(<ThemeProbe />)).toThrow('useTheme must be used inside a ThemeProvider');
    spy.mockRestore();
  });
});

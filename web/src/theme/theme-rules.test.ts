import { autoThemeAt, parseThemeChoice, themeFor } from './theme-rules';

const at = (hour: number, minute: number): Date => new Date(2026, 10, 21, hour, minute);

describe('autoThemeAt', () => {
  it.each([
    [0, 0, 'dark'],
    [5, 59, 'dark'],
    [6, 0, 'light'],
    [12, 0, 'light'],
    [17, 59, 'light'],
    [18, 0, 'dark'],
    [23, 59, 'dark'],
  ])('picks the right theme at %i:%i local time', (hour, minute, expected) => {
    expect(autoThemeAt(at(hour, minute))).toBe(expected);
  });
});

describe('themeFor', () => {
  it('uses the manual choice whatever the hour', () => {
    expect(themeFor('dark', at(12, 0))).toBe('dark');
    expect(themeFor('light', at(23, 0))).toBe('light');
  });

  it('follows the clock in auto mode', () => {
    expect(themeFor('auto', at(23, 0))).toBe('dark');
  });
});

describe('parseThemeChoice', () => {
  it('accepts the three choices and rejects anything else', () => {
    expect(['auto', 'light', 'dark'].map(parseThemeChoice)).toEqual(['auto', 'light', 'dark']);
    expect(parseThemeChoice('sepia')).toBeUndefined();
    expect(parseThemeChoice(null)).toBeUndefined();
  });
});

// US dollar figures as the screens show them: whole dollars, compact headlines, and a real minus sign.

/** The typographic minus (U+2212), aligned with digits, not a hyphen. */
export const MINUS = '−';

const USD = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', minimumFractionDigits: 0, maximumFractionDigits: 0 });
const COMPACT_USD = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', notation: 'compact', minimumFractionDigits: 0, maximumFractionDigits: 1 });

/** `format` of the magnitude, with MINUS before a negative value. */
export function signed(value: number, format: (n: number) => string): string {
  const shown = format(Math.abs(value));
  return value < 0 ? `${MINUS}${shown}` : shown;
}

/** "$17,100,000" from a decimal string; "—" when unknown. */
export function formatUsd(value: string | null): string {
  if (value === null) return '—';
  const n = Number(value);
  return Number.isFinite(n) ? signed(n, (v) => USD.format(v)) : '—';
}

/** "$17.1M", "$850K": headline figures. */
export function formatUsdCompact(value: string | null): string {
  if (value === null) return '—';
  const n = Number(value);
  return Number.isFinite(n) ? signed(n, (v) => COMPACT_USD.format(v)) : '—';
}

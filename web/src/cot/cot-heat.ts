// The screener's heat colours for percentile ranks: a diverging scale from short extreme (orange)
// through neutral to long extreme (blue). Blue/orange stays distinguishable with red-green colour
// blindness, and the number is always printed in the cell, so colour is never the only signal.
// The colours themselves are theme variables in cot.css; this module only picks the step.
// docs/cot.md: a percentile of COT_EXTREME_LONG_AT (90) or more is a long extreme,
// COT_EXTREME_SHORT_AT (10) or less a short one.
import { COT_EXTREME_LONG_AT, COT_EXTREME_SHORT_AT } from '@tickerbell/jobs/cot/shapes';

export const HEAT_TONES = ['short-3', 'short-2', 'short-1', 'neutral', 'long-1', 'long-2', 'long-3'] as const;
export type HeatTone = (typeof HEAT_TONES)[number] | 'none';

export interface Heat {
  tone: HeatTone;
  extreme: 'long' | 'short' | null;
  /** The value as printed in the cell. */
  label: string;
  /** Words for screen readers and tooltips. */
  description: string;
}

/** The legend, from short extreme to long extreme. */
export const HEAT_LEGEND: readonly { tone: (typeof HEAT_TONES)[number]; range: string; description: string }[] = [
  { tone: 'short-3', range: '≤ 10', description: 'Short extreme' },
  { tone: 'short-2', range: '10–25', description: 'Short' },
  { tone: 'short-1', range: '25–45', description: 'Leaning short' },
  { tone: 'neutral', range: '45–55', description: 'Neutral' },
  { tone: 'long-1', range: '55–75', description: 'Leaning long' },
  { tone: 'long-2', range: '75–90', description: 'Long' },
  { tone: 'long-3', range: '≥ 90', description: 'Long extreme' },
];

function toneOf(value: number): (typeof HEAT_TONES)[number] {
  if (value >= COT_EXTREME_LONG_AT) return 'long-3';
  if (value <= COT_EXTREME_SHORT_AT) return 'short-3';
  if (value >= 75) return 'long-2';
  if (value <= 25) return 'short-2';
  if (value > 55) return 'long-1';
  if (value < 45) return 'short-1';
  return 'neutral';
}

/** The heat step of a percentile rank (0–100); null (analytics not run yet) has no colour. */
export function percentileHeat(percentile: number | null): Heat {
  if (percentile === null || !Number.isFinite(percentile)) {
    return { tone: 'none', extreme: null, label: '—', description: 'not computed' };
  }
  const value = Math.min(100, Math.max(0, percentile));
  const tone = toneOf(value);
  const extreme = tone === 'long-3' ? 'long' : tone === 'short-3' ? 'short' : null;
  const description = HEAT_LEGEND.find((step) => step.tone === tone)?.description ?? 'Neutral';
  const label = Number.isInteger(percentile) ? String(percentile) : percentile.toFixed(2);
  return { tone, extreme, label, description: description.toLowerCase() };
}

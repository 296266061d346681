// Canvas colours of the price chart per theme. The canvas cannot read CSS custom properties, so
// these mirror styles.css (--bg, --text-muted, --border, --up, --down) for each data-theme.
import type { Theme } from '../theme/theme-rules';

export interface ChartPalette {
  background: string;
  text: string;
  grid: string;
  border: string;
  up: string;
  down: string;
  volumeUp: string;
  volumeDown: string;
  /** Line indicators without a saved colour take these in turn. */
  lines: readonly string[];
  rsi: string;
  rsiBands: string;
  macd: string;
  macdSignal: string;
}

export const CHART_PALETTES: Readonly<Record<Theme, ChartPalette>> = {
  light: {
    background: '#ffffff',
    text: '#4b5563',
    grid: '#eef1f6',
    border: '#e1e5ee',
    up: '#15803d',
    down: '#b91c1c',
    volumeUp: 'rgba(21, 128, 61, 0.35)',
    volumeDown: 'rgba(185, 28, 28, 0.35)',
    lines: ['#1d4ed8', '#c2410c', '#7c3aed', '#0f766e', '#a16207'],
    rsi: '#7c3aed',
    rsiBands: '#9ca3af',
    macd: '#1d4ed8',
    macdSignal: '#c2410c',
  },
  dark: {
    background: '#151924',
    text: '#a6aec3',
    grid: '#232938',
    border: '#2f3648',
    up: '#4ade80',
    down: '#fb7185',
    volumeUp: 'rgba(74, 222, 128, 0.35)',
    volumeDown: 'rgba(251, 113, 133, 0.35)',
    lines: ['#82a7ff', '#fb923c', '#c4b5fd', '#2dd4bf', '#facc15'],
    rsi: '#c4b5fd',
    rsiBands: '#6b7280',
    macd: '#82a7ff',
    macdSignal: '#fb923c',
  },
};

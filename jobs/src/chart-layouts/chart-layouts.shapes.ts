// HTTP shapes of saved chart layouts (/api/chart-layouts). Plain types and constants with no
// runtime imports (except other *.shapes.ts): the web client imports this file as
// `@tickerbell/jobs/chart-layouts/shapes`; the server's zod schema (chart-layout-shape.ts) and
// views come from it.
import { CANDLE_INTERVALS, type CandleInterval } from '../prices/prices.shapes';

/** Bar intervals a chart can show (the price bars' intervals). */
export const CHART_INTERVALS = CANDLE_INTERVALS;
export type ChartInterval = CandleInterval;
export const CHART_INDICATOR_TYPES = ['sma', 'ema', 'rsi', 'macd', 'volume'] as const;
export type ChartIndicatorType = (typeof CHART_INDICATOR_TYPES)[number];
/** Periods an indicator may take, in bars. */
export const CHART_INDICATOR_PERIOD = { min: 2, max: 500 } as const;
/** Largest layout stored, as serialized JSON (bytes of UTF-8). */
export const CHART_LAYOUT_MAX_BYTES = 64 * 1024;
/** Indicators one layout may carry. */
export const CHART_LAYOUT_INDICATORS_MAX = 50;
/** Layouts one user may save. */
export const CHART_LAYOUTS_PER_USER_MAX = 100;
/** Longest layout name (the column's length). */
export const CHART_LAYOUT_NAME_MAX = 100;
/** Longest symbol a layout may open on. */
export const CHART_LAYOUT_SYMBOL_MAX = 30;

export type ChartLayoutErrorCode = 'not_found' | 'limit' | 'default_conflict';

/** One indicator; keys beyond these pass through for the client (fast/slow periods, line width...). */
export interface ChartIndicator {
  type: ChartIndicatorType;
  period?: number;
  color?: string;
  [key: string]: unknown;
}

/** A saved chart's body: what the server checks; the rest (pane sizes, drawings...) passes through. */
export interface ChartLayoutBody {
  symbol: string;
  interval: ChartInterval;
  indicators: ChartIndicator[];
  [key: string]: unknown;
}

/** A layout in the list (GET /api/chart-layouts): without its body, with the symbol and interval it opens on. */
export interface ChartLayoutSummary {
  id: number;
  name: string;
  isDefault: boolean;
  symbol: string | null;
  interval: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A whole layout (GET /api/chart-layouts/:id and /default, and every write's answer). */
export interface ChartLayoutView {
  id: number;
  name: string;
  isDefault: boolean;
  layout: Record<string, unknown>;
  createdAt: string;
  updatedAt: string;
}

/** GET /api/chart-layouts/default: the default layout, or null when the user has not chosen one (not an error). */
export interface ChartLayoutDefaultResponse {
  layout: ChartLayoutView | null;
}

/** GET /api/chart-layouts */
export interface ChartLayoutListResponse {
  layouts: ChartLayoutSummary[];
}

/** POST /api/chart-layouts */
export interface CreateChartLayoutRequest {
  name: string;
  layout: ChartLayoutBody;
  isDefault?: boolean;
}

/** PATCH /api/chart-layouts/:id */
export type PatchChartLayoutRequest = Partial<CreateChartLayoutRequest>;

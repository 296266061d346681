// Saved chart layouts (/api/chart-layouts): a symbol, a bar interval and the indicators drawn.
// At most one layout per user is the default (the database enforces it); it opens by itself.
import { apiRequest, isRecord } from '../api/client';
import {
  CHART_INDICATOR_PERIOD,
  CHART_INDICATOR_TYPES,
  type ChartIndicator,
  type ChartIndicatorType,
  type ChartLayoutBody,
  type ChartLayoutSummary as ClientChartLayoutSummary,
  type CreateChartLayoutRequest,
  type PatchChartLayoutRequest,
} from '@tickerbell/jobs/chart-layouts/shapes';
import type { CandleInterval } from '@tickerbell/jobs/prices/shapes';
import { isCandleInterval } from '../prices/markets-client';
import { sendWithCsrf } from '../accounts/auth-client';

export const INDICATOR_LABELS: Readonly<Record<ChartIndicatorType, string>> = {
  sma: 'Simple moving average (SMA)',
  ema: 'Exponential moving average (EMA)',
  rsi: 'Relative strength index (RSI)',
  macd: 'MACD (12, 26, 9)',
  volume: 'Volume',
};

/** Indicators that take a period, with its default. */
export const DEFAULT_PERIODS: Readonly<Partial<Record<ChartIndicatorType, number>>> = { sma: 20, ema: 50, rsi: 14 };
/** One indicator as the chart draws it (ChartIndicator without the keys this client does not use). */
export type IndicatorConfig = Pick<ChartIndicator, 'type' | 'period' | 'color'>;

/** A layout's body as the chart opens it (ChartLayoutBody, read leniently). */
export type ChartLayoutData = Pick<ChartLayoutBody, 'symbol' | 'interval'> & { indicators: IndicatorConfig[] };

/** A layout in the list (GET /api/chart-layouts answers these, without the body); an unknown interval reads as null. */
export type ChartLayoutSummary = Omit<ClientChartLayoutSummary, 'interval'> & { interval: CandleInterval | null };

/** A whole layout (GET /api/chart-layouts/:id and /default, and every write answer). */
export interface ChartLayout extends ChartLayoutSummary {
  layout: ChartLayoutData;
}

export const DEFAULT_CHART: ChartLayoutData = { symbol: 'BTCUSDT', interval: '1h', indicators: [{ type: 'volume' }] };

function fail(where: string, expected: string): never {
  throw new TypeError(`${where}: expected ${expected}`);
}

function isIndicatorType(value: unknown): value is ChartIndicatorType {
  return typeof value === 'string' && (CHART_INDICATOR_TYPES as readonly string[]).includes(value);
}

/** "#1d4ed8" or "#abc": the only colours a saved layout may carry into the canvas. */
const HEX_COLOUR = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i;

/** One indicator of a saved layout; unknown types and out-of-range periods are dropped or fixed. */
export function parseIndicator(value: unknown): IndicatorConfig | null {
  if (!isRecord(value) || !isIndicatorType(value.type)) return null;
  const indicator: IndicatorConfig = { type: value.type };
  const fallback = DEFAULT_PERIODS[value.type];
  if (fallback !== undefined) {
    const period = typeof value.period === 'number' && Number.isInteger(value.period) ? value.period : fallback;
    indicator.period = Math.min(CHART_INDICATOR_PERIOD.max, Math.max(CHART_INDICATOR_PERIOD.min, period));
  }
  if (typeof value.color === 'string' && HEX_COLOUR.test(value.color)) indicator.color = value.color;
  return indicator;
}

export function parseLayoutData(value: unknown, where = 'layout'): ChartLayoutData {
  if (!isRecord(value)) fail(where, 'an object');
  if (typeof value.symbol !== 'string' || value.symbol === '') fail(`${where}.symbol`, 'a symbol');
  const interval = isCandleInterval(value.interval) ? value.interval : DEFAULT_CHART.interval;
  const indicators = Array.isArray(value.indicators) ? value.indicators.flatMap((item: unknown) => parseIndicator(item) ?? []) : [];
  return { symbol: value.symbol, interval, indicators };
}

function parseSummaryFields(source: Record<string, unknown>, where: string): Omit<ChartLayoutSummary, 'symbol' | 'interval'> {
  const id = typeof source.id === 'string' && /^\d+$/.test(source.id) ? Number(source.id) : source.id;
  if (typeof id !== 'number' || !Number.isInteger(id)) fail(`${where}.id`, 'an id');
  if (typeof source.name !== 'string') fail(`${where}.name`, 'text');
  return {
    id,
    name: source.name,
    isDefault: source.isDefault === true,
    createdAt: typeof source.createdAt === 'string' ? source.createdAt : '',
    updatedAt: typeof source.updatedAt === 'string' ? source.updatedAt : '',
  };
}

export function parseChartLayoutSummary(value: unknown, where = 'chartLayout'): ChartLayoutSummary {
  if (!isRecord(value)) fail(where, 'an object');
  // A whole layout also reads as a summary: its symbol and interval are in the body.
  const body = isRecord(value.layout) ? value.layout : value;
  return {
    ...parseSummaryFields(value, where),
    symbol: typeof body.symbol === 'string' ? body.symbol : null,
    interval: isCandleInterval(body.interval) ? body.interval : null,
  };
}

export function parseChartLayout(value: unknown, where = 'chartLayout'): ChartLayout {
  if (!isRecord(value)) fail(where, 'an object');
  const layout = parseLayoutData(value.layout, `${where}.layout`);
  return { ...parseSummaryFields(value, where), symbol: layout.symbol, interval: layout.interval, layout };
}

/** `{ layouts: [...] }` as api/src/chart-layouts answers; a bare list is read too. */
export function parseChartLayouts(body: unknown): ChartLayoutSummary[] {
  const list = Array.isArray(body) ? body : isRecord(body) ? body.layouts : undefined;
  if (!Array.isArray(list)) fail('chartLayouts', 'a list');
  return list.map((value: unknown, index) => parseChartLayoutSummary(value, `chartLayouts[${index}]`));
}

/** The summary of a whole layout, for the list. */
export function summaryOf(layout: ChartLayout): ChartLayoutSummary {
  const { id, name, isDefault, symbol, interval, createdAt, updatedAt } = layout;
  return { id, name, isDefault, symbol, interval, createdAt, updatedAt };
}

export const CHART_LAYOUTS_PATH = '/api/chart-layouts';

export function getChartLayouts(signal?: AbortSignal): Promise<ChartLayoutSummary[]> {
  return apiRequest(CHART_LAYOUTS_PATH, { signal, parse: parseChartLayouts });
}

export function getChartLayout(id: number, signal?: AbortSignal): Promise<ChartLayout> {
  return apiRequest(`${CHART_LAYOUTS_PATH}/${id}`, { signal, parse: (body) => parseChartLayout(body) });
}

/** `{ layout }` as GET /api/chart-layouts/default answers: the default layout, or null when the user has none. */
export function parseDefaultChartLayout(body: unknown): ChartLayout | null {
  if (!isRecord(body) || !('layout' in body)) fail('defaultChartLayout', '{ layout }');
  return body.layout === null ? null : parseChartLayout(body.layout, 'defaultChartLayout.layout');
}

/** The default layout, or null when the user has none (an ordinary answer, not an error). */
export function getDefaultChartLayout(signal?: AbortSignal): Promise<ChartLayout | null> {
  return apiRequest(`${CHART_LAYOUTS_PATH}/default`, { signal, parse: parseDefaultChartLayout });
}

export function createChartLayout(input: CreateChartLayoutRequest & { layout: ChartLayoutData; isDefault: boolean }): Promise<ChartLayout> {
  return sendWithCsrf(CHART_LAYOUTS_PATH, { method: 'POST', body: input, parse: (body) => parseChartLayout(body) });
}

export function updateChartLayout(id: number, change: Pick<PatchChartLayoutRequest, 'name'> & { layout?: ChartLayoutData }): Promise<ChartLayout> {
  return sendWithCsrf(`${CHART_LAYOUTS_PATH}/${id}`, { method: 'PATCH', body: change, parse: (body) => parseChartLayout(body) });
}

export async function setDefaultChartLayout(id: number): Promise<void> {
  await sendWithCsrf(`${CHART_LAYOUTS_PATH}/${id}/default`, { method: 'PUT', parse: () => undefined });
}

export async function deleteChartLayout(id: number): Promise<void> {
  await sendWithCsrf(`${CHART_LAYOUTS_PATH}/${id}`, { method: 'DELETE', parse: () => undefined });
}

import { z } from 'zod';

/** Bar intervals a chart can show (the price bars' intervals). */
export const CHART_INTERVALS = ['1m', '5m', '15m', '1h', '4h', '1d'] as const;
export const CHART_INDICATOR_TYPES = ['sma', 'ema', 'rsi', 'macd', 'volume'] as const;
/** Largest layout stored, as serialized JSON (bytes of UTF-8). */
export const CHART_LAYOUT_MAX_BYTES = 64 * 1024;
/** Indicators one layout may carry. */
export const CHART_LAYOUT_INDICATORS_MAX = 50;

// Colours end up in the chart library's canvas styles: hex, a colour name or rgb()/rgba() only.
const colorSchema = z
  .string()
  .max(40)
  .regex(/^(#[0-9a-fA-F]{3,8}|[a-zA-Z]{1,30}|rgba?\([0-9.,%\s]{1,30}\))$/, 'a hex colour, a colour name or rgb()/rgba()');

/** One indicator; keys beyond these are kept for the client (fast/slow periods, line width...). */
export const chartIndicatorSchema = z.looseObject({
  type: z.enum(CHART_INDICATOR_TYPES),
  period: z.number().int().min(2).max(500).optional(),
  color: colorSchema.optional(),
});

/**
 * A saved chart: what the server understands is checked, the rest passes through untouched for
 * the client (pane sizes, drawing tools...), bounded by the serialized size.
 */
export const chartLayoutSchema = z
  .looseObject({
    symbol: z.string().trim().min(1).max(30),
    interval: z.enum(CHART_INTERVALS),
    indicators: z.array(chartIndicatorSchema).max(CHART_LAYOUT_INDICATORS_MAX).default([]),
  })
  .refine((layout) => Buffer.byteLength(JSON.stringify(layout), 'utf8') <= CHART_LAYOUT_MAX_BYTES, {
    message: `at most ${CHART_LAYOUT_MAX_BYTES / 1024} kB serialized`,
  });

export type ChartLayoutBody = z.infer<typeof chartLayoutSchema>;

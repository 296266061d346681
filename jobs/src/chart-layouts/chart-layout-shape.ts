import { z } from 'zod';
import {
  CHART_INDICATOR_PERIOD,
  CHART_INDICATOR_TYPES,
  CHART_INTERVALS,
  CHART_LAYOUT_INDICATORS_MAX,
  CHART_LAYOUT_MAX_BYTES,
  CHART_LAYOUT_SYMBOL_MAX,
  type ChartLayoutBody as ChartLayoutShape,
} from './chart-layouts.shapes';

export { CHART_INDICATOR_TYPES, CHART_INTERVALS, CHART_LAYOUT_INDICATORS_MAX, CHART_LAYOUT_MAX_BYTES } from './chart-layouts.shapes';

// Colours end up in the chart library's canvas styles: hex, a colour name or rgb()/rgba() only.
const colorSchema = z
  .string()
  .max(40)
  .regex(/^(#[0-9a-fA-F]{3,8}|[a-zA-Z]{1,30}|rgba?\([0-9.,%\s]{1,30}\))$/, 'a hex colour, a colour name or rgb()/rgba()');

/** One indicator; keys beyond these are kept for the client (fast/slow periods, line width...). */
export const chartIndicatorSchema = z.looseObject({
  type: z.enum(CHART_INDICATOR_TYPES),
  period: z.number().int().min(CHART_INDICATOR_PERIOD.min).max(CHART_INDICATOR_PERIOD.max).optional(),
  color: colorSchema.optional(),
});

/**
 * A saved chart: what the server understands is checked, the rest passes through untouched for
 * the client (pane sizes, drawing tools...), bounded by the serialized size.
 */
export const chartLayoutSchema = z
  .looseObject({
    symbol: z.string().trim().min(1).max(CHART_LAYOUT_SYMBOL_MAX),
    interval: z.enum(CHART_INTERVALS),
    indicators: z.array(chartIndicatorSchema).max(CHART_LAYOUT_INDICATORS_MAX).default([]),
  })
  .refine((layout) => Buffer.byteLength(JSON.stringify(layout), 'utf8') <= CHART_LAYOUT_MAX_BYTES, {
    message: `at most ${CHART_LAYOUT_MAX_BYTES / 1024} kB serialized`,
  });

export type ChartLayoutBody = z.infer<typeof chartLayoutSchema>;

// The schema parses exactly the HTTP shape (chart-layouts.shapes.ts): a change to one without the
// other fails to compile here.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const schemaMatchesShape: Same<ChartLayoutBody, ChartLayoutShape> = true;
void schemaMatchesShape;

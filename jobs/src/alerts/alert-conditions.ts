import DecimalJs from 'decimal.js';
import { z } from 'zod';
import {
  ATR_UNITS,
  CHANNEL_CONDITIONS,
  CONDITION_DEFAULTS,
  CROSS_DIRECTIONS,
  DECIMAL_PATTERN,
  MA_KINDS,
  MOVING_CONDITIONS,
  MOVING_PERCENT_CONDITIONS,
  NEWS_KEYWORDS,
  NEWS_SCOPES,
  PERIOD_BARS,
  PRICE_LEVEL_CONDITIONS,
  RSI_CONDITIONS,
  RSI_LEVEL_BOUNDS,
  TECHNICAL_CONDITIONS,
  VOLATILITY_BOUNDS,
  WINDOW_MINUTES,
  type AlertCondition,
  type NewsCondition,
  type PriceCondition,
  type TechnicalCondition,
} from './alerts.shapes';
import { ema, macd, rsi, sma, type Series } from './technical-indicators';
import { isVolatilityCondition, volatilityBarsNeeded } from './volatility-conditions';

/**
 * Alert conditions as pure functions of (previous price, current price, recent history) or of a
 * symbol's closed bars. The semantics (exact threshold, gaps, first tick) are documented in
 * docs/alerts.md and pinned by jobs/test/alerts/alert-conditions.test.ts.
 *
 * Prices and thresholds are decimal strings and are compared exactly (decimal.js), never as floats.
 * The condition types, parameters and limits are the HTTP shapes' (alerts.shapes.ts); the zod
 * schemas below are built from them.
 */

/** Enough digits that differences and products of numeric(30,10) values never round. */
export const ExactDecimal = DecimalJs.clone({ precision: 80 });
type Decimal = InstanceType<typeof ExactDecimal>;
const Decimal = ExactDecimal;

export {
  ALERT_CONDITION_TYPES,
  CHANNEL_CONDITIONS,
  MOVING_CONDITIONS,
  MOVING_PERCENT_CONDITIONS,
  PRICE_LEVEL_CONDITIONS,
  RSI_CONDITIONS,
  TECHNICAL_CONDITIONS,
  INDICATOR_CONDITIONS,
  VOLATILITY_CONDITIONS,
  type AlertCondition,
  type AlertConditionType,
  type IndicatorCondition,
  type NewsCondition,
  type PriceCondition,
  type TechnicalCondition,
  type VolatilityCondition,
} from './alerts.shapes';
export { isVolatilityCondition } from './volatility-conditions';

/** The decimal a string holds, or null: zod runs every check of a field, so a refinement may see a value that failed the pattern. */
function decimalOrNull(value: string): Decimal | null {
  return DECIMAL_PATTERN.test(value) ? new Decimal(value) : null;
}

/** A positive decimal that fits the numeric(30,10) columns. */
export const decimalStringSchema = z
  .string()
  .regex(DECIMAL_PATTERN, 'a decimal number such as 42 or 60740.25 (at most 10 decimals)')
  .refine((v) => decimalOrNull(v)?.gt(0) ?? true, 'must be greater than 0');

const windowMinutesSchema = z.number().int().min(WINDOW_MINUTES.min).max(WINDOW_MINUTES.max);
const directionSchema = z.enum(CROSS_DIRECTIONS).default(CONDITION_DEFAULTS.direction);
const maKindSchema = z.enum(MA_KINDS).default(CONDITION_DEFAULTS.ma);
const periodSchema = z.number().int().min(PERIOD_BARS.min).max(PERIOD_BARS.max);

export const priceConditionSchema = z.discriminatedUnion('type', [
  z.object({ type: z.enum(PRICE_LEVEL_CONDITIONS), value: decimalStringSchema }).strict(),
  z
    .object({ type: z.enum(CHANNEL_CONDITIONS), low: decimalStringSchema, high: decimalStringSchema })
    .strict()
    .refine((c) => {
      const low = decimalOrNull(c.low);
      const high = decimalOrNull(c.high);
      return !low || !high || low.lt(high);
    }, { message: 'low must be below high', path: ['high'] }),
  z.object({ type: z.enum(MOVING_CONDITIONS), amount: decimalStringSchema, minutes: windowMinutesSchema }).strict(),
  z.object({ type: z.enum(MOVING_PERCENT_CONDITIONS), percent: decimalStringSchema, minutes: windowMinutesSchema }).strict(),
]);

/** A positive level of at most `max` (strictly above 0: a zero level would always or never hold). */
const levelSchema = (max: number) => z.number().gt(0).max(max);
const factorSchema = z.number().gt(VOLATILITY_BOUNDS.factor.above).max(VOLATILITY_BOUNDS.factor.max);

function volatilitySchemas() {
  return [
    z
      .object({
        type: z.literal('volatility_above'),
        period: periodSchema.default(CONDITION_DEFAULTS.volatilityPeriod),
        level: levelSchema(VOLATILITY_BOUNDS.volatilityPercent.max),
      })
      .strict(),
    z
      .object({
        type: z.literal('volatility_spike'),
        period: periodSchema.default(CONDITION_DEFAULTS.volatilityPeriod),
        longPeriod: periodSchema.default(CONDITION_DEFAULTS.volatilityLongPeriod),
        factor: factorSchema,
      })
      .strict()
      .refine((c) => c.period < c.longPeriod, { message: 'longPeriod must be longer than period', path: ['longPeriod'] }),
    z
      .object({
        type: z.literal('atr_above'),
        period: periodSchema.default(CONDITION_DEFAULTS.atrPeriod),
        unit: z.enum(ATR_UNITS).default(CONDITION_DEFAULTS.atrUnit),
        level: levelSchema(VOLATILITY_BOUNDS.atrPrice.max),
      })
      .strict()
      .refine((c) => c.unit !== 'percent' || c.level <= VOLATILITY_BOUNDS.atrPercent.max, {
        message: `a percent of the close must be at most ${VOLATILITY_BOUNDS.atrPercent.max}`,
        path: ['level'],
      }),
    z
      .object({
        type: z.literal('bollinger_squeeze'),
        period: periodSchema.default(CONDITION_DEFAULTS.bollingerPeriod),
        level: levelSchema(VOLATILITY_BOUNDS.bandWidth.max),
      })
      .strict(),
    z
      .object({
        type: z.literal('bollinger_breakout'),
        period: periodSchema.default(CONDITION_DEFAULTS.bollingerPeriod),
        factor: factorSchema,
        lookback: z.number().int().min(VOLATILITY_BOUNDS.lookback.min).max(VOLATILITY_BOUNDS.lookback.max).default(CONDITION_DEFAULTS.breakoutLookback),
      })
      .strict(),
    z
      .object({
        type: z.literal('opening_gap'),
        percent: levelSchema(VOLATILITY_BOUNDS.gapPercent.max),
        direction: z.enum(CROSS_DIRECTIONS).default(CONDITION_DEFAULTS.gapDirection),
      })
      .strict(),
  ] as const;
}

export const technicalConditionSchema = z.discriminatedUnion('type', [
  z
    .object({
      type: z.enum(RSI_CONDITIONS),
      level: z.number().gt(RSI_LEVEL_BOUNDS.above).lt(RSI_LEVEL_BOUNDS.below),
      period: periodSchema.default(CONDITION_DEFAULTS.rsiPeriod),
    })
    .strict(),
  z.object({ type: z.literal('price_crossing_ma'), ma: maKindSchema, period: periodSchema, direction: directionSchema }).strict(),
  z
    .object({ type: z.literal('ma_crossover'), ma: maKindSchema, fast: periodSchema, slow: periodSchema, direction: directionSchema })
    .strict()
    .refine((c) => c.fast < c.slow, { message: 'fast must be shorter than slow', path: ['fast'] }),
  ...volatilitySchemas(),
  z
    .object({
      type: z.literal('macd_signal_cross'),
      fast: periodSchema.default(CONDITION_DEFAULTS.macd.fast),
      slow: periodSchema.default(CONDITION_DEFAULTS.macd.slow),
      signal: periodSchema.default(CONDITION_DEFAULTS.macd.signal),
      direction: directionSchema,
    })
    .strict()
    .refine((c) => c.fast < c.slow, { message: 'fast must be shorter than slow', path: ['fast'] }),
]);

/** A news alert (docs/alerts.md, "News conditions"): keywords with scope `keywords` only, and then 1-10 of them. */
export const newsConditionSchema = z
  .object({
    type: z.literal('news'),
    scope: z.enum(NEWS_SCOPES).default('any'),
    keywords: z
      .array(z.string().trim().min(NEWS_KEYWORDS.minLength).max(NEWS_KEYWORDS.maxLength))
      .min(NEWS_KEYWORDS.min)
      .max(NEWS_KEYWORDS.max)
      .optional(),
    digest: z.boolean().default(false),
  })
  .strict()
  .refine((c) => c.scope !== 'keywords' || c.keywords !== undefined, { message: 'keywords are required with scope keywords', path: ['keywords'] })
  .refine((c) => c.scope === 'keywords' || c.keywords === undefined, { message: 'keywords go with scope keywords only', path: ['keywords'] });

// Discriminated on type across the families: an invalid field is reported under its own name.
export const alertConditionSchema = z.discriminatedUnion('type', [priceConditionSchema, technicalConditionSchema, newsConditionSchema]);

// The schemas parse exactly the shapes' types (alerts.shapes.ts): a change to one without the
// other fails to compile here.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const schemasMatchShapes: [
  Same<z.infer<typeof priceConditionSchema>, PriceCondition>,
  Same<z.infer<typeof technicalConditionSchema>, TechnicalCondition>,
  Same<z.infer<typeof newsConditionSchema>, NewsCondition>,
] = [true, true, true];
void schemasMatchShapes;

export function isTechnicalCondition(condition: AlertCondition): condition is TechnicalCondition {
  return (TECHNICAL_CONDITIONS as readonly string[]).includes(condition.type);
}

export function isNewsCondition(condition: AlertCondition): condition is NewsCondition {
  return condition.type === 'news';
}

/** Conditions a price update is checked against (neither on bars nor on news). */
export function isPriceCondition(condition: AlertCondition): condition is PriceCondition {
  return !isTechnicalCondition(condition) && !isNewsCondition(condition);
}

export interface PricePoint {
  at: Date;
  /** Decimal string. */
  price: string;
}

/** One price update of a symbol. */
export interface PriceTick {
  /** The price before this update (decimal string), null on the first update seen. */
  previous: string | null;
  current: string;
  at: Date;
  /** Earlier prices of the symbol (any order); only moving conditions read it. */
  history?: readonly PricePoint[];
}

/** Exact comparison of two decimal strings: a float fast path, decimal.js only when the floats tie. */
export function compareDecimal(a: string, b: string): -1 | 0 | 1 {
  const x = Number(a);
  const y = Number(b);
  // Rounding to a double is monotonic: different doubles order the decimals the same way.
  if (x < y) return -1;
  if (x > y) return 1;
  if (a === b) return 0;
  return new Decimal(a).comparedTo(b) as -1 | 0 | 1;
}

const lt = (a: string, b: string) => compareDecimal(a, b) < 0;
const le = (a: string, b: string) => compareDecimal(a, b) <= 0;

export function insideChannel(price: string, low: string, high: string): boolean {
  return le(low, price) && le(price, high);
}

/** Lowest and highest price within the last `minutes` (history since now - minutes, plus the current price). */
export function windowExtremes(tick: PriceTick, minutes: number): { min: string; max: string } {
  const since = tick.at.getTime() - minutes * 60_000;
  let min = tick.current;
  let max = tick.current;
  for (const point of tick.history ?? []) {
    const t = point.at.getTime();
    if (t < since || t > tick.at.getTime()) continue;
    if (lt(point.price, min)) min = point.price;
    if (lt(max, point.price)) max = point.price;
  }
  return { min, max };
}

/** How far the price rose from the window's low (up) or fell from its high (down), as a decimal string. */
export function movedAmount(tick: PriceTick, minutes: number, direction: 'up' | 'down'): Decimal {
  const { min, max } = windowExtremes(tick, minutes);
  return direction === 'up' ? new Decimal(tick.current).minus(min) : new Decimal(max).minus(tick.current);
}

/** The move from the window's low (up) or high (down) in percent of that low/high. */
export function movedPercent(tick: PriceTick, minutes: number, direction: 'up' | 'down'): Decimal {
  const { min, max } = windowExtremes(tick, minutes);
  const base = new Decimal(direction === 'up' ? min : max);
  if (base.lte(0)) return new Decimal(0);
  return movedAmount(tick, minutes, direction).times(100).div(base);
}

/** Does a price update meet a price condition? */
export function isPriceConditionMet(condition: PriceCondition, tick: PriceTick): boolean {
  const { previous: p, current: c } = tick;
  switch (condition.type) {
    // Crossing: the price reaches the level coming from the other side (p < v <= c upward,
    // p > v >= c downward). A gap through the level counts; a tick that starts on the level does not.
    case 'crossing_up':
      return p !== null && lt(p, condition.value) && le(condition.value, c);
    case 'crossing_down':
      return p !== null && lt(condition.value, p) && le(c, condition.value);
    case 'crossing':
      return (
        p !== null &&
        ((lt(p, condition.value) && le(condition.value, c)) || (lt(condition.value, p) && le(c, condition.value)))
      );
    // Levels hold on every tick where they are true (strictly): the frequency rule limits firing.
    case 'greater_than':
      return lt(condition.value, c);
    case 'less_than':
      return lt(c, condition.value);
    // Channels include both bounds. Entering/exiting need the previous price on the other side;
    // a jump clean across the channel (never observed inside) is neither.
    case 'entering_channel':
      return p !== null && !insideChannel(p, condition.low, condition.high) && insideChannel(c, condition.low, condition.high);
    case 'exiting_channel':
      return p !== null && insideChannel(p, condition.low, condition.high) && !insideChannel(c, condition.low, condition.high);
    case 'inside_channel':
      return insideChannel(c, condition.low, condition.high);
    case 'outside_channel':
      return !insideChannel(c, condition.low, condition.high);
    // Moving: the price is at least `amount` above the window's low (up) or below its high (down).
    case 'moving_up':
    case 'moving_down':
      return movedAmount(tick, condition.minutes, condition.type === 'moving_up' ? 'up' : 'down').gte(condition.amount);
    case 'moving_up_percent':
    case 'moving_down_percent': {
      const direction = condition.type === 'moving_up_percent' ? 'up' : 'down';
      const { min, max } = windowExtremes(tick, condition.minutes);
      const base = new Decimal(direction === 'up' ? min : max);
      if (base.lte(0)) return false;
      // moved / base * 100 >= percent, cross-multiplied so no division rounds.
      return movedAmount(tick, condition.minutes, direction).times(100).gte(base.times(condition.percent));
    }
  }
}

/** A sign change of a - b from the previous to the last bar, with the same exact-threshold rule as price crossings. */
function crossed(a: Series, b: Series, direction: 'up' | 'down' | 'any'): boolean {
  const n = a.length;
  if (n < 2) return false;
  const [a0, b0, a1, b1] = [a[n - 2], b[n - 2], a[n - 1], b[n - 1]];
  if (a0 === null || b0 === null || a1 === null || b1 === null) return false;
  const before = a0 - b0;
  const after = a1 - b1;
  const up = before < 0 && after >= 0;
  const down = before > 0 && after <= 0;
  return direction === 'up' ? up : direction === 'down' ? down : up || down;
}

/** The number of closed bars a technical condition needs before it can be met. */
export function barsNeeded(condition: TechnicalCondition): number {
  if (isVolatilityCondition(condition)) return volatilityBarsNeeded(condition);
  switch (condition.type) {
    case 'rsi_above':
    case 'rsi_below':
      return condition.period + 1;
    case 'price_crossing_ma':
      return condition.period + 1;
    case 'ma_crossover':
      return condition.slow + 1;
    case 'macd_signal_cross':
      return condition.slow + condition.signal;
  }
}

/**
 * Does the newest closed bar meet a technical condition? `closes` are closing prices of closed
 * bars, oldest first. RSI levels hold while true (like price levels); the others are crossings
 * between the last two bars.
 */
export function isTechnicalConditionMet(condition: TechnicalCondition, closes: readonly string[]): boolean {
  // Volatility conditions read highs and lows too: volatility-conditions.ts, on OHLC bars.
  if (isVolatilityCondition(condition)) throw new TypeError(`${condition.type} is evaluated on OHLC bars (isVolatilityConditionMet)`);
  if (closes.length < barsNeeded(condition)) return false;
  const values = closes.map(Number);
  switch (condition.type) {
    case 'rsi_above':
    case 'rsi_below': {
      const last = rsi(values, condition.period).at(-1);
      if (last === null || last === undefined) return false;
      return condition.type === 'rsi_above' ? last > condition.level : last < condition.level;
    }
    case 'price_crossing_ma': {
      const ma = condition.ma === 'ema' ? ema(values, condition.period) : sma(values, condition.period);
      return crossed(values, ma, condition.direction);
    }
    case 'ma_crossover': {
      const average = condition.ma === 'ema' ? ema : sma;
      return crossed(average(values, condition.fast), average(values, condition.slow), condition.direction);
    }
    case 'macd_signal_cross': {
      const m = macd(values, condition.fast, condition.slow, condition.signal);
      return crossed(m.line, m.signal, condition.direction);
    }
  }
}

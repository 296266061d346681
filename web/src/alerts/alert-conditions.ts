// The alert form's view of the condition rules: labels, picker groups and summaries. The rules
// themselves (types, parameters, limits) are the api's, from @tickerbell/jobs/alerts/shapes;
// meanings in docs/alerts.md. The server validates again; these only let the form say what is
// wrong before sending.
import {
  ALERT_CONDITION_TYPES,
  CHANNEL_CONDITIONS,
  MOVING_CONDITIONS,
  MOVING_PERCENT_CONDITIONS,
  PRICE_LEVEL_CONDITIONS,
  RSI_CONDITIONS,
  INDICATOR_CONDITIONS,
  TECHNICAL_CONDITIONS,
  VOLATILITY_CONDITIONS,
  NEWS_CONDITIONS,
  DECIMAL_PATTERN,
  type AlertCondition,
  type AlertConditionType,
  type CrossDirection,
  type MaKind,
  type TriggerFrequency,
} from '@tickerbell/jobs/alerts/shapes';
import type { CandleInterval } from '@tickerbell/jobs/prices/shapes';

/** Groups of the condition picker, each with the parameter fields its members share. */
export type ConditionFamily =
  | 'price'
  | 'channel'
  | 'moving'
  | 'percent'
  | 'rsi'
  | 'price_ma'
  | 'ma_cross'
  | 'macd'
  | 'vol_level'
  | 'vol_spike'
  | 'atr'
  | 'bb_squeeze'
  | 'bb_breakout'
  | 'gap'
  | 'news';

export function familyOf(type: AlertConditionType): ConditionFamily {
  if ((PRICE_LEVEL_CONDITIONS as readonly string[]).includes(type)) return 'price';
  if ((CHANNEL_CONDITIONS as readonly string[]).includes(type)) return 'channel';
  if ((MOVING_CONDITIONS as readonly string[]).includes(type)) return 'moving';
  if ((MOVING_PERCENT_CONDITIONS as readonly string[]).includes(type)) return 'percent';
  if ((RSI_CONDITIONS as readonly string[]).includes(type)) return 'rsi';
  if (type === 'price_crossing_ma') return 'price_ma';
  if (type === 'ma_crossover') return 'ma_cross';
  if (type === 'volatility_above') return 'vol_level';
  if (type === 'volatility_spike') return 'vol_spike';
  if (type === 'atr_above') return 'atr';
  if (type === 'bollinger_squeeze') return 'bb_squeeze';
  if (type === 'bollinger_breakout') return 'bb_breakout';
  if (type === 'opening_gap') return 'gap';
  if (type === 'news') return 'news';
  return 'macd';
}

export function isTechnicalType(type: AlertConditionType): boolean {
  return (TECHNICAL_CONDITIONS as readonly string[]).includes(type);
}

export function isConditionType(value: unknown): value is AlertConditionType {
  return typeof value === 'string' && (ALERT_CONDITION_TYPES as readonly string[]).includes(value);
}

export const CONDITION_LABELS: Readonly<Record<AlertConditionType, string>> = {
  crossing: 'Crossing',
  crossing_up: 'Crossing up',
  crossing_down: 'Crossing down',
  greater_than: 'Greater than',
  less_than: 'Less than',
  entering_channel: 'Entering channel',
  exiting_channel: 'Exiting channel',
  inside_channel: 'Inside channel',
  outside_channel: 'Outside channel',
  moving_up: 'Moving up (amount)',
  moving_down: 'Moving down (amount)',
  moving_up_percent: 'Moving up (%)',
  moving_down_percent: 'Moving down (%)',
  rsi_above: 'RSI above',
  rsi_below: 'RSI below',
  price_crossing_ma: 'Price crossing moving average',
  ma_crossover: 'Moving-average crossover',
  macd_signal_cross: 'MACD signal cross',
  volatility_above: 'Realised volatility above',
  volatility_spike: 'Volatility spike',
  atr_above: 'ATR above',
  bollinger_squeeze: 'Bollinger squeeze',
  bollinger_breakout: 'Bollinger breakout',
  opening_gap: 'Opening gap (stocks, ETFs)',
  news: 'News or filing about the market',
};

export const CONDITION_GROUPS: readonly { label: string; types: readonly AlertConditionType[] }[] = [
  { label: 'Price', types: PRICE_LEVEL_CONDITIONS },
  { label: 'Channel', types: CHANNEL_CONDITIONS },
  { label: 'Moving', types: [...MOVING_CONDITIONS, ...MOVING_PERCENT_CONDITIONS] },
  { label: 'Technical (on closed bars)', types: INDICATOR_CONDITIONS },
  { label: 'Volatility (on closed bars)', types: VOLATILITY_CONDITIONS },
  { label: 'News', types: NEWS_CONDITIONS },
];

export const CANDLE_INTERVAL_LABELS: Readonly<Record<CandleInterval, string>> = {
  '1m': '1 minute',
  '5m': '5 minutes',
  '15m': '15 minutes',
  '1h': '1 hour',
  '4h': '4 hours',
  '1d': '1 day',
};

export const FREQUENCY_LABELS: Readonly<Record<TriggerFrequency, string>> = {
  once: 'Once',
  once_per_day: 'Once per day',
  every_time: 'Every time',
};

/** Crypto alerts notify once per day (spec section 9); others once, then deactivate. */
export function defaultFrequency(marketType: string | null): TriggerFrequency {
  return marketType === 'crypto' ? 'once_per_day' : 'once';
}

/** Why a threshold text is not a positive decimal of at most 10 decimals; null when it is. */
export function decimalProblem(text: string): string | null {
  const value = text.trim();
  if (value === '') return 'Enter a number.';
  if (!DECIMAL_PATTERN.test(value)) return 'Enter a number such as 42 or 60740.25 (at most 10 decimals).';
  if (!/[1-9]/.test(value)) return 'Must be greater than 0.';
  return null;
}

/** Exact order of two valid decimal strings (no float rounding: 28-digit thresholds stay exact). */
export function compareDecimalText(a: string, b: string): number {
  const [aInt = '', aFrac = ''] = a.trim().split('.');
  const [bInt = '', bFrac = ''] = b.trim().split('.');
  const ai = aInt.replace(/^0+(?=\d)/, '');
  const bi = bInt.replace(/^0+(?=\d)/, '');
  if (ai.length !== bi.length) return ai.length < bi.length ? -1 : 1;
  if (ai !== bi) return ai < bi ? -1 : 1;
  const width = Math.max(aFrac.length, bFrac.length);
  const af = aFrac.padEnd(width, '0');
  const bf = bFrac.padEnd(width, '0');
  return af === bf ? 0 : af < bf ? -1 : 1;
}

// ---- Human-readable summaries ----

const DIRECTION_WORDS: Readonly<Record<CrossDirection, string>> = { up: 'up', down: 'down', any: 'either way' };

function maName(ma: MaKind, period: number): string {
  return `${ma.toUpperCase()}(${period})`;
}

/** "Crosses up 70000", "Enters 90–110", "RSI(14) above 70" … for the list and the history. */
export function conditionSummary(condition: AlertCondition): string {
  switch (condition.type) {
    case 'crossing':
      return `Crosses ${condition.value}`;
    case 'crossing_up':
      return `Crosses up through ${condition.value}`;
    case 'crossing_down':
      return `Crosses down through ${condition.value}`;
    case 'greater_than':
      return `Above ${condition.value}`;
    case 'less_than':
      return `Below ${condition.value}`;
    case 'entering_channel':
      return `Enters the ${condition.low}–${condition.high} channel`;
    case 'exiting_channel':
      return `Leaves the ${condition.low}–${condition.high} channel`;
    case 'inside_channel':
      return `Inside ${condition.low}–${condition.high}`;
    case 'outside_channel':
      return `Outside ${condition.low}–${condition.high}`;
    case 'moving_up':
      return `Rises by ${condition.amount} within ${condition.minutes} min`;
    case 'moving_down':
      return `Falls by ${condition.amount} within ${condition.minutes} min`;
    case 'moving_up_percent':
      return `Rises ${condition.percent}% within ${condition.minutes} min`;
    case 'moving_down_percent':
      return `Falls ${condition.percent}% within ${condition.minutes} min`;
    case 'rsi_above':
      return `RSI(${condition.period}) above ${condition.level}`;
    case 'rsi_below':
      return `RSI(${condition.period}) below ${condition.level}`;
    case 'price_crossing_ma':
      return `Price crosses ${maName(condition.ma, condition.period)} ${DIRECTION_WORDS[condition.direction]}`;
    case 'ma_crossover':
      return `${maName(condition.ma, condition.fast)} crosses ${maName(condition.ma, condition.slow)} ${DIRECTION_WORDS[condition.direction]}`;
    case 'macd_signal_cross':
      return `MACD(${condition.fast}, ${condition.slow}, ${condition.signal}) crosses its signal ${DIRECTION_WORDS[condition.direction]}`;
    case 'volatility_above':
      return `Realised volatility (${condition.period} bars) above ${condition.level}%`;
    case 'volatility_spike':
      return `Volatility (${condition.period} bars) above ${condition.factor}× its ${condition.longPeriod}-bar average`;
    case 'atr_above':
      return `ATR(${condition.period}) above ${condition.level}${condition.unit === 'percent' ? '% of the close' : ''}`;
    case 'bollinger_squeeze':
      return `Bollinger width (${condition.period}) below ${condition.level}`;
    case 'bollinger_breakout':
      return `Bollinger width (${condition.period}) above ${condition.factor}× its value ${condition.lookback} bars earlier`;
    case 'opening_gap':
      return `Opening gap of more than ${condition.percent}% ${DIRECTION_WORDS[condition.direction]} against the previous close`;
    case 'news': {
      const what =
        condition.scope === 'filings'
          ? 'SEC filings'
          : condition.scope === 'keywords'
            ? `News naming ${(condition.keywords ?? []).map((k) => `“${k}”`).join(', ')}`
            : 'Any news';
      return condition.digest ? `${what}, hourly digest` : what;
    }
  }
}

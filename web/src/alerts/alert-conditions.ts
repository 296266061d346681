// Alert conditions as the client knows them: the same types, parameters and limits as
// jobs/src/alerts/alert-conditions.ts (the server's zod schemas), meanings in docs/alerts.md.
// The server validates again; these rules only let the form say what is wrong before sending.

export const PRICE_LEVEL_TYPES = ['crossing', 'crossing_up', 'crossing_down', 'greater_than', 'less_than'] as const;
export const CHANNEL_TYPES = ['entering_channel', 'exiting_channel', 'inside_channel', 'outside_channel'] as const;
export const MOVING_TYPES = ['moving_up', 'moving_down'] as const;
export const MOVING_PERCENT_TYPES = ['moving_up_percent', 'moving_down_percent'] as const;
export const RSI_TYPES = ['rsi_above', 'rsi_below'] as const;
export const TECHNICAL_TYPES = [...RSI_TYPES, 'price_crossing_ma', 'ma_crossover', 'macd_signal_cross'] as const;

export type PriceLevelType = (typeof PRICE_LEVEL_TYPES)[number];
export type ChannelType = (typeof CHANNEL_TYPES)[number];
export type MovingType = (typeof MOVING_TYPES)[number];
export type MovingPercentType = (typeof MOVING_PERCENT_TYPES)[number];
export type RsiType = (typeof RSI_TYPES)[number];
export type MaKind = 'sma' | 'ema';
export type CrossDirection = 'up' | 'down' | 'any';

export type AlertCondition =
  | { type: PriceLevelType; value: string }
  | { type: ChannelType; low: string; high: string }
  | { type: MovingType; amount: string; minutes: number }
  | { type: MovingPercentType; percent: string; minutes: number }
  | { type: RsiType; level: number; period: number }
  | { type: 'price_crossing_ma'; ma: MaKind; period: number; direction: CrossDirection }
  | { type: 'ma_crossover'; ma: MaKind; fast: number; slow: number; direction: CrossDirection }
  | { type: 'macd_signal_cross'; fast: number; slow: number; signal: number; direction: CrossDirection };

export type AlertConditionType = AlertCondition['type'];

export const CONDITION_TYPES: readonly AlertConditionType[] = [
  ...PRICE_LEVEL_TYPES,
  ...CHANNEL_TYPES,
  ...MOVING_TYPES,
  ...MOVING_PERCENT_TYPES,
  ...TECHNICAL_TYPES,
];

/** Groups of the condition picker, each with the parameter fields its members share. */
export type ConditionFamily = 'price' | 'channel' | 'moving' | 'percent' | 'rsi' | 'price_ma' | 'ma_cross' | 'macd';

export function familyOf(type: AlertConditionType): ConditionFamily {
  if ((PRICE_LEVEL_TYPES as readonly string[]).includes(type)) return 'price';
  if ((CHANNEL_TYPES as readonly string[]).includes(type)) return 'channel';
  if ((MOVING_TYPES as readonly string[]).includes(type)) return 'moving';
  if ((MOVING_PERCENT_TYPES as readonly string[]).includes(type)) return 'percent';
  if ((RSI_TYPES as readonly string[]).includes(type)) return 'rsi';
  if (type === 'price_crossing_ma') return 'price_ma';
  if (type === 'ma_crossover') return 'ma_cross';
  return 'macd';
}

export function isTechnicalType(type: AlertConditionType): boolean {
  return (TECHNICAL_TYPES as readonly string[]).includes(type);
}

export function isConditionType(value: unknown): value is AlertConditionType {
  return typeof value === 'string' && (CONDITION_TYPES as readonly string[]).includes(value);
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
};

export const CONDITION_GROUPS: readonly { label: string; types: readonly AlertConditionType[] }[] = [
  { label: 'Price', types: PRICE_LEVEL_TYPES },
  { label: 'Channel', types: CHANNEL_TYPES },
  { label: 'Moving', types: [...MOVING_TYPES, ...MOVING_PERCENT_TYPES] },
  { label: 'Technical (on closed bars)', types: TECHNICAL_TYPES },
];

/** Bar intervals of technical alerts (jobs/src/prices/price-source.ts CANDLE_INTERVALS). */
export const BAR_INTERVALS = ['1m', '5m', '15m', '1h', '4h', '1d'] as const;
export type BarInterval = (typeof BAR_INTERVALS)[number];
export const BAR_INTERVAL_LABELS: Readonly<Record<BarInterval, string>> = {
  '1m': '1 minute',
  '5m': '5 minutes',
  '15m': '15 minutes',
  '1h': '1 hour',
  '4h': '4 hours',
  '1d': '1 day',
};

export const TRIGGER_FREQUENCIES = ['once', 'once_per_day', 'every_time'] as const;
export type TriggerFrequency = (typeof TRIGGER_FREQUENCIES)[number];
export const FREQUENCY_LABELS: Readonly<Record<TriggerFrequency, string>> = {
  once: 'Once',
  once_per_day: 'Once per day',
  every_time: 'Every time',
};

/** Crypto alerts notify once per day (spec section 9); others once, then deactivate. */
export function defaultFrequency(marketType: string | null): TriggerFrequency {
  return marketType === 'crypto' ? 'once_per_day' : 'once';
}

// ---- Limits (mirroring the server's schemas) ----

export const DECIMAL_PATTERN = /^\d{1,20}(\.\d{1,10})?$/;
export const MINUTES_MIN = 1;
export const MINUTES_MAX = 1440;
export const PERIOD_MIN = 2;
export const PERIOD_MAX = 500;
export const COOLDOWN_MAX_SECONDS = 86_400;
export const DEFAULT_COOLDOWN_SECONDS = 60;
export const NAME_MAX = 100;
export const AUDIO_MESSAGE_MAX = 500;
export const WEBHOOK_URL_MAX = 2000;

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
  }
}

// The create/edit dialog's state as plain text fields, its validation (the server's rules, so the
// form can say what is wrong before sending) and the request body it turns into.
import { isRecord } from '../api/client';
import type { Alert, AlertInput } from './alerts-client';
import {
  ALERT_NAME_MAX,
  AUDIO_MESSAGE_MAX,
  CONDITION_DEFAULTS,
  COOLDOWN_SECONDS,
  PERIOD_BARS,
  RSI_LEVEL_BOUNDS,
  SESSION_MARKET_TYPES,
  VOLATILITY_BOUNDS,
  WEBHOOK_URL_MAX,
  WINDOW_MINUTES,
  NEWS_KEYWORDS,
  type AlertCondition,
  type AlertConditionType,
  type CrossDirection,
  type MaKind,
  type TriggerFrequency,
} from '@tickerbell/jobs/alerts/shapes';
import type { CandleInterval } from '@tickerbell/jobs/prices/shapes';
import { compareDecimalText, decimalProblem, defaultFrequency, familyOf, isTechnicalType, type ConditionFamily } from './alert-conditions';

/** Every condition parameter the form can show; a family uses some of them. */
export const PARAM_FIELDS = [
  'value',
  'low',
  'high',
  'amount',
  'percent',
  'minutes',
  'level',
  'period',
  'ma',
  'fast',
  'slow',
  'signal',
  'direction',
  'factor',
  'longPeriod',
  'unit',
  'lookback',
  'scope',
  'keywords',
  'digest',
] as const;
export type ParamField = (typeof PARAM_FIELDS)[number];

/** The parameters of each family, in the order the form shows them. */
export const FAMILY_FIELDS: Readonly<Record<ConditionFamily, readonly ParamField[]>> = {
  price: ['value'],
  channel: ['low', 'high'],
  moving: ['amount', 'minutes'],
  percent: ['percent', 'minutes'],
  rsi: ['level', 'period'],
  price_ma: ['ma', 'period', 'direction'],
  ma_cross: ['ma', 'fast', 'slow', 'direction'],
  macd: ['fast', 'slow', 'signal', 'direction'],
  vol_level: ['level', 'period'],
  vol_spike: ['factor', 'period', 'longPeriod'],
  atr: ['level', 'unit', 'period'],
  bb_squeeze: ['level', 'period'],
  bb_breakout: ['factor', 'lookback', 'period'],
  gap: ['percent', 'direction'],
  news: ['scope', 'keywords', 'digest'],
};

/** Starting values when a family is picked (the server's defaults where it has them). */
const FAMILY_DEFAULTS: Readonly<Record<ConditionFamily, Partial<Record<ParamField, string>>>> = {
  price: { value: '' },
  channel: { low: '', high: '' },
  moving: { amount: '', minutes: '60' },
  percent: { percent: '', minutes: '60' },
  rsi: { level: '70', period: String(CONDITION_DEFAULTS.rsiPeriod) },
  price_ma: { ma: 'sma', period: '20', direction: 'any' },
  ma_cross: { ma: 'sma', fast: '50', slow: '200', direction: 'any' },
  macd: { fast: String(CONDITION_DEFAULTS.macd.fast), slow: String(CONDITION_DEFAULTS.macd.slow), signal: String(CONDITION_DEFAULTS.macd.signal), direction: 'any' },
  vol_level: { level: '60', period: String(CONDITION_DEFAULTS.volatilityPeriod) },
  vol_spike: { factor: '2', period: String(CONDITION_DEFAULTS.volatilityPeriod), longPeriod: String(CONDITION_DEFAULTS.volatilityLongPeriod) },
  atr: { level: '', unit: CONDITION_DEFAULTS.atrUnit, period: String(CONDITION_DEFAULTS.atrPeriod) },
  bb_squeeze: { level: '0.05', period: String(CONDITION_DEFAULTS.bollingerPeriod) },
  bb_breakout: { factor: '2', lookback: String(CONDITION_DEFAULTS.breakoutLookback), period: String(CONDITION_DEFAULTS.bollingerPeriod) },
  gap: { percent: '2', direction: CONDITION_DEFAULTS.gapDirection },
  news: { scope: 'any', keywords: '', digest: 'false' },
};

export interface AlertFormState {
  name: string;
  symbol: string;
  /** The picked market's type (crypto alerts default to once per day); null when unknown. */
  marketType: string | null;
  type: AlertConditionType;
  params: Record<ParamField, string>;
  interval: CandleInterval;
  frequency: TriggerFrequency;
  /** Set once the user picks a frequency: a later symbol change then keeps it. */
  frequencyChosen: boolean;
  cooldownSeconds: string;
  expires: boolean;
  /** A datetime-local value (the browser's time zone). */
  expiresAt: string;
  notifyPush: boolean;
  notifyEmail: boolean;
  webhook: boolean;
  webhookUrl: string;
  useAudio: boolean;
  audioMessage: string;
  audioVoiceId: string;
}

/** Field keys of errors: the request body's paths (condition.value, webhookUrl …). */
export type FieldErrors = Partial<Record<string, string>>;

const EMPTY_PARAMS: Record<ParamField, string> = Object.fromEntries(PARAM_FIELDS.map((field) => [field, ''])) as Record<ParamField, string>;

export function paramsForFamily(family: ConditionFamily, current: Record<ParamField, string> = EMPTY_PARAMS): Record<ParamField, string> {
  return { ...current, ...FAMILY_DEFAULTS[family] };
}

/** Picking another condition keeps the parameters within a family and resets them across families. */
export function withConditionType(state: AlertFormState, type: AlertConditionType): AlertFormState {
  const same = familyOf(type) === familyOf(state.type);
  return { ...state, type, params: same ? state.params : paramsForFamily(familyOf(type), state.params) };
}

/** Picking a market: crypto defaults to once per day unless the user chose a frequency. */
export function withMarket(state: AlertFormState, symbol: string, marketType: string | null): AlertFormState {
  return { ...state, symbol, marketType, frequency: state.frequencyChosen ? state.frequency : defaultFrequency(marketType) };
}

/** A datetime-local value ("2026-11-21T18:30") of an instant, in the browser's time zone. */
export function toLocalInput(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const pad = (n: number): string => String(n).padStart(2, '0');
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}T${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

function conditionParams(condition: AlertCondition): Record<ParamField, string> {
  const params = paramsForFamily(familyOf(condition.type));
  for (const [key, value] of Object.entries(condition)) {
    if (key === 'keywords' && Array.isArray(value)) params.keywords = value.join(', ');
    else if (key !== 'type' && (PARAM_FIELDS as readonly string[]).includes(key)) params[key as ParamField] = String(value);
  }
  return params;
}

export function initialForm(alert?: Alert): AlertFormState {
  if (!alert) {
    return {
      name: '',
      symbol: '',
      marketType: null,
      type: 'crossing_up',
      params: paramsForFamily('price'),
      interval: '1h',
      frequency: 'once',
      frequencyChosen: false,
      cooldownSeconds: String(COOLDOWN_SECONDS.default),
      expires: false,
      expiresAt: '',
      notifyPush: true,
      notifyEmail: false,
      webhook: false,
      webhookUrl: '',
      useAudio: false,
      audioMessage: '',
      audioVoiceId: '',
    };
  }
  const type = alert.condition?.type ?? 'crossing_up';
  return {
    name: alert.name,
    symbol: alert.symbol,
    marketType: alert.marketType,
    type,
    params: alert.condition ? conditionParams(alert.condition) : paramsForFamily(familyOf(type)),
    interval: alert.interval ?? '1h',
    frequency: alert.frequency,
    frequencyChosen: true,
    cooldownSeconds: String(alert.cooldownSeconds),
    expires: alert.expiresAt !== null,
    expiresAt: alert.expiresAt ? toLocalInput(alert.expiresAt) : '',
    notifyPush: alert.notifyPush,
    notifyEmail: alert.notifyEmail,
    webhook: alert.webhookUrl !== null,
    webhookUrl: alert.webhookUrl ?? '',
    useAudio: alert.useAudio,
    audioMessage: alert.audioMessage ?? '',
    audioVoiceId: alert.audioVoiceId ?? '',
  };
}

// ---- Validation ----

function wholeNumber(text: string, min: number, max: number, errors: FieldErrors, key: string): number {
  const trimmed = text.trim();
  const value = Number(trimmed);
  if (trimmed === '' || !/^-?\d+$/.test(trimmed)) errors[key] = 'Enter a whole number.';
  else if (value < min || value > max) errors[key] = `Must be from ${min} to ${max}.`;
  return value;
}

function decimal(text: string, errors: FieldErrors, key: string): string {
  const problem = decimalProblem(text);
  if (problem) errors[key] = problem;
  return text.trim();
}

/** A positive number (0 excluded) of at most `max`; `above` excluded as well when given (factors: above 1). */
function positiveNumber(text: string, max: number, errors: FieldErrors, key: string, above = 0): number {
  const trimmed = text.trim();
  const value = Number(trimmed);
  if (trimmed === '' || !Number.isFinite(value)) errors[key] = 'Enter a number.';
  else if (value <= above || value > max) errors[key] = `Must be above ${above} and at most ${max}.`;
  return value;
}

function direction(text: string): CrossDirection {
  return text === 'up' || text === 'down' ? text : 'any';
}

function maKind(text: string): MaKind {
  return text === 'ema' ? 'ema' : 'sma';
}

/** The condition object of the form, with errors under `condition.<param>`. */
export function buildCondition(state: AlertFormState, errors: FieldErrors): AlertCondition {
  const p = state.params;
  const key = (field: ParamField): string => `condition.${field}`;
  const type = state.type;
  switch (type) {
    case 'crossing':
    case 'crossing_up':
    case 'crossing_down':
    case 'greater_than':
    case 'less_than':
      return { type, value: decimal(p.value, errors, key('value')) };
    case 'entering_channel':
    case 'exiting_channel':
    case 'inside_channel':
    case 'outside_channel': {
      const low = decimal(p.low, errors, key('low'));
      const high = decimal(p.high, errors, key('high'));
      if (!errors[key('low')] && !errors[key('high')] && compareDecimalText(low, high) >= 0) errors[key('high')] = 'The high must be above the low.';
      return { type, low, high };
    }
    case 'moving_up':
    case 'moving_down':
      return { type, amount: decimal(p.amount, errors, key('amount')), minutes: wholeNumber(p.minutes, WINDOW_MINUTES.min, WINDOW_MINUTES.max, errors, key('minutes')) };
    case 'moving_up_percent':
    case 'moving_down_percent':
      return { type, percent: decimal(p.percent, errors, key('percent')), minutes: wholeNumber(p.minutes, WINDOW_MINUTES.min, WINDOW_MINUTES.max, errors, key('minutes')) };
    case 'rsi_above':
    case 'rsi_below': {
      const trimmed = p.level.trim();
      const level = Number(trimmed);
      if (trimmed === '' || !Number.isFinite(level)) errors[key('level')] = 'Enter a number.';
      else if (level <= RSI_LEVEL_BOUNDS.above || level >= RSI_LEVEL_BOUNDS.below) errors[key('level')] = `Must be above ${RSI_LEVEL_BOUNDS.above} and below ${RSI_LEVEL_BOUNDS.below}.`;
      return { type, level, period: wholeNumber(p.period, PERIOD_BARS.min, PERIOD_BARS.max, errors, key('period')) };
    }
    case 'price_crossing_ma':
      return { type, ma: maKind(p.ma), period: wholeNumber(p.period, PERIOD_BARS.min, PERIOD_BARS.max, errors, key('period')), direction: direction(p.direction) };
    case 'ma_crossover':
    case 'macd_signal_cross': {
      const fast = wholeNumber(p.fast, PERIOD_BARS.min, PERIOD_BARS.max, errors, key('fast'));
      const slow = wholeNumber(p.slow, PERIOD_BARS.min, PERIOD_BARS.max, errors, key('slow'));
      if (!errors[key('fast')] && !errors[key('slow')] && fast >= slow) errors[key('fast')] = 'The fast period must be shorter than the slow one.';
      if (type === 'ma_crossover') return { type, ma: maKind(p.ma), fast, slow, direction: direction(p.direction) };
      return { type, fast, slow, signal: wholeNumber(p.signal, PERIOD_BARS.min, PERIOD_BARS.max, errors, key('signal')), direction: direction(p.direction) };
    }
    case 'volatility_above':
      return {
        type,
        period: wholeNumber(p.period, PERIOD_BARS.min, PERIOD_BARS.max, errors, key('period')),
        level: positiveNumber(p.level, VOLATILITY_BOUNDS.volatilityPercent.max, errors, key('level')),
      };
    case 'volatility_spike': {
      const period = wholeNumber(p.period, PERIOD_BARS.min, PERIOD_BARS.max, errors, key('period'));
      const longPeriod = wholeNumber(p.longPeriod, PERIOD_BARS.min, PERIOD_BARS.max, errors, key('longPeriod'));
      if (!errors[key('period')] && !errors[key('longPeriod')] && longPeriod <= period) errors[key('longPeriod')] = 'The average window must be longer than the volatility window.';
      const factor = positiveNumber(p.factor, VOLATILITY_BOUNDS.factor.max, errors, key('factor'), VOLATILITY_BOUNDS.factor.above);
      return { type, period, longPeriod, factor };
    }
    case 'atr_above': {
      const unit = p.unit === 'percent' ? 'percent' : 'price';
      const max = unit === 'percent' ? VOLATILITY_BOUNDS.atrPercent.max : VOLATILITY_BOUNDS.atrPrice.max;
      return { type, period: wholeNumber(p.period, PERIOD_BARS.min, PERIOD_BARS.max, errors, key('period')), unit, level: positiveNumber(p.level, max, errors, key('level')) };
    }
    case 'bollinger_squeeze':
      return {
        type,
        period: wholeNumber(p.period, PERIOD_BARS.min, PERIOD_BARS.max, errors, key('period')),
        level: positiveNumber(p.level, VOLATILITY_BOUNDS.bandWidth.max, errors, key('level')),
      };
    case 'bollinger_breakout':
      return {
        type,
        period: wholeNumber(p.period, PERIOD_BARS.min, PERIOD_BARS.max, errors, key('period')),
        factor: positiveNumber(p.factor, VOLATILITY_BOUNDS.factor.max, errors, key('factor'), VOLATILITY_BOUNDS.factor.above),
        lookback: wholeNumber(p.lookback, VOLATILITY_BOUNDS.lookback.min, VOLATILITY_BOUNDS.lookback.max, errors, key('lookback')),
      };
    case 'opening_gap':
      // Sessions only: the server refuses a crypto (or other sessionless) market under condition.type too.
      if (state.marketType !== null && !(SESSION_MARKET_TYPES as readonly string[]).includes(state.marketType)) {
        errors['condition.type'] = 'An opening gap needs a market with sessions: pick a stock or an ETF.';
      }
      return { type, percent: positiveNumber(p.percent, VOLATILITY_BOUNDS.gapPercent.max, errors, key('percent')), direction: direction(p.direction) };
    case 'news': {
      const scope = p.scope === 'filings' || p.scope === 'keywords' ? p.scope : 'any';
      const digest = p.digest === 'true';
      if (scope !== 'keywords') return { type, scope, digest };
      return { type, scope, keywords: newsKeywords(p.keywords, errors, key('keywords')), digest };
    }
  }
}

/** Comma-separated keywords: 1-10, each 2-50 characters (matched as whole words, in any case). */
function newsKeywords(text: string, errors: FieldErrors, key: string): string[] {
  const keywords = text
    .split(',')
    .map((k) => k.trim())
    .filter((k) => k !== '');
  if (keywords.length < NEWS_KEYWORDS.min) errors[key] = 'Enter at least one keyword.';
  else if (keywords.length > NEWS_KEYWORDS.max) errors[key] = `At most ${NEWS_KEYWORDS.max} keywords.`;
  else if (keywords.some((k) => k.length < NEWS_KEYWORDS.minLength || k.length > NEWS_KEYWORDS.maxLength))
    errors[key] = `Each keyword takes ${NEWS_KEYWORDS.minLength} to ${NEWS_KEYWORDS.maxLength} characters.`;
  return keywords;
}

function isHttpUrl(text: string): boolean {
  try {
    const url = new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:';
  } catch {
    return false;
  }
}

export type FormResult = { ok: true; input: AlertInput } | { ok: false; errors: FieldErrors };

/** Checks the form like the server would and builds the request body. */
export function validateAlertForm(state: AlertFormState, now: Date = new Date()): FormResult {
  const errors: FieldErrors = {};
  const name = state.name.trim();
  if (name === '') errors.name = 'Give the alert a name.';
  else if (name.length > ALERT_NAME_MAX) errors.name = `At most ${ALERT_NAME_MAX} characters.`;
  const symbol = state.symbol.trim().toUpperCase();
  if (symbol === '') errors.symbol = 'Pick a market.';

  const condition = buildCondition(state, errors);

  let cooldownSeconds: number | undefined;
  if (state.frequency === 'every_time') cooldownSeconds = wholeNumber(state.cooldownSeconds, 0, COOLDOWN_SECONDS.max, errors, 'cooldownSeconds');

  let expiresAt: string | null = null;
  if (state.expires) {
    const date = new Date(state.expiresAt);
    if (state.expiresAt === '' || Number.isNaN(date.getTime())) errors.expiresAt = 'Pick a date and time.';
    else if (date.getTime() <= now.getTime()) errors.expiresAt = 'Must be in the future.';
    else expiresAt = date.toISOString();
  }

  let webhookUrl: string | null = null;
  if (state.webhook) {
    webhookUrl = state.webhookUrl.trim();
    if (webhookUrl === '') errors.webhookUrl = 'Enter the URL to POST to.';
    else if (webhookUrl.length > WEBHOOK_URL_MAX) errors.webhookUrl = `At most ${WEBHOOK_URL_MAX} characters.`;
    else if (!isHttpUrl(webhookUrl)) errors.webhookUrl = 'Enter an http:// or https:// URL.';
  }

  const audioMessage = state.audioMessage.trim();
  if (audioMessage.length > AUDIO_MESSAGE_MAX) errors.audioMessage = `At most ${AUDIO_MESSAGE_MAX} characters.`;

  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    input: {
      name,
      symbol,
      condition,
      ...(isTechnicalType(condition.type) ? { interval: state.interval } : {}),
      frequency: state.frequency,
      ...(cooldownSeconds === undefined ? {} : { cooldownSeconds }),
      expiresAt,
      notifyPush: state.notifyPush,
      notifyEmail: state.notifyEmail,
      webhookUrl,
      useAudio: state.useAudio,
      audioMessage: audioMessage === '' ? null : audioMessage,
      audioVoiceId: state.audioVoiceId === '' ? null : state.audioVoiceId,
    },
  };
}

/** The form field of a server issue path ("condition.value", "params.low", "body.name" …). */
export function fieldOfIssue(path: string): string {
  const parts = path.split('.').filter((part) => part !== '' && part !== 'body');
  if (parts[0] === 'params' || parts[0] === 'condition') return parts.length > 1 ? `condition.${parts[1]}` : 'condition';
  if (parts[0] === 'marketId' || parts[0] === 'market') return 'symbol';
  return parts[0] ?? '';
}

/** The server's zod issues (`details: [{ field, message }]`) as field errors; the rest as text. */
export function serverFieldErrors(details: unknown): { fields: FieldErrors; other: string[] } {
  const fields: FieldErrors = {};
  const other: string[] = [];
  if (!Array.isArray(details)) return { fields, other };
  for (const issue of details) {
    if (!isRecord(issue) || typeof issue.message !== 'string') continue;
    const path = typeof issue.field === 'string' ? issue.field : Array.isArray(issue.path) ? issue.path.join('.') : '';
    const field = fieldOfIssue(path);
    if (field === '') other.push(issue.message);
    else fields[field] ??= issue.message;
  }
  return { fields, other };
}

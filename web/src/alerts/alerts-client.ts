// Calls to the alerts api (api/src/alerts/alerts.routes.ts); the market search is markets-client.ts. Reads go
// through apiRequest; every state-changing call carries the csrf token (sendWithCsrf).
import { apiRequest, isRecord } from '../api/client';
import { sendWithCsrf } from '../accounts/auth-client';
import { CANDLE_INTERVALS, type CandleInterval } from '@tickerbell/jobs/prices/shapes';
import {
  ALERTS_PAGE_SIZE,
  CHANNEL_CONDITIONS,
  CONDITION_DEFAULTS,
  COOLDOWN_SECONDS,
  MOVING_CONDITIONS,
  MOVING_PERCENT_CONDITIONS,
  PRICE_LEVEL_CONDITIONS,
  RSI_CONDITIONS,
  TRIGGER_FREQUENCIES,
  type AlertCondition,
  type CheckedAlert as ClientCheckedAlert,
  type ClientAlert,
  type ClientAlertLog,
  type CreateAlertRequest,
  type CrossDirection,
  type MaKind,
  type PatchAlertRequest,
  type TriggerFrequency,
} from '@tickerbell/jobs/alerts/shapes';
import { isConditionType } from './alert-conditions';

export const ALERTS_PATH = '/api/alerts';
export const ALERTS_CHECK_PATH = '/api/alerts/crypto/check';

/**
 * An alert (the api's ClientAlert) as this client keeps it: ids as text, the condition parsed,
 * and what the client does not know read as null or the default.
 */
export type Alert = Omit<ClientAlert, 'id' | 'marketType' | 'condition' | 'interval' | 'frequency' | 'createdAt' | 'updatedAt'> & {
  id: string;
  marketType: string | null;
  /** Null when the server sent a condition this client does not know (a newer type). */
  condition: AlertCondition | null;
  conditionType: string;
  interval: CandleInterval | null;
  frequency: TriggerFrequency;
  createdAt: string | null;
  updatedAt: string | null;
};

/** What the alert form sends to POST /api/alerts: every field it has, the interval only for technical conditions. */
export type AlertInput = CreateAlertRequest &
  Required<Pick<CreateAlertRequest, 'frequency' | 'expiresAt' | 'notifyPush' | 'notifyEmail' | 'webhookUrl' | 'useAudio' | 'audioMessage' | 'audioVoiceId'>>;

/** PATCH /api/alerts/:id takes any part of it, and isActive. */
export type AlertPatch = PatchAlertRequest;

/** One firing (the api's ClientAlertLog); a value or attempt count the client cannot read is null. */
export type AlertLog = Omit<ClientAlertLog, 'value' | 'webhookAttempts'> & {
  value: string | null;
  webhookAttempts: number | null;
};

export interface AlertLogPage {
  items: AlertLog[];
  /** The `before` of the next (older) page; null on the last page. */
  nextBefore: string | null;
}

export interface AlertPage {
  items: Alert[];
  /** The `before` of the next (older) page; null on the last page. */
  nextBefore: string | null;
}

/** One firing handed out by POST /api/alerts/crypto/check (the api's CheckedAlert, as much as speaking it needs). */
export type CheckedAlert = Pick<ClientCheckedAlert, 'name' | 'useAudio' | 'audioMessage' | 'audioVoiceId'> & {
  id: string;
  logId: string | null;
  message: string | null;
  symbol: string | null;
};

// ---- Parsing ----

function fail(where: string, expected: string): never {
  throw new TypeError(`${where}: expected ${expected}`);
}

function record(value: unknown, where: string): Record<string, unknown> {
  if (!isRecord(value)) fail(where, 'an object');
  return value;
}

function idOf(value: unknown, where: string): string {
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'string' && value !== '') return value;
  fail(where, 'an id');
}

function text(value: unknown, where: string): string {
  if (typeof value !== 'string') fail(where, 'text');
  return value;
}

function textOrNull(value: unknown): string | null {
  return typeof value === 'string' && value !== '' ? value : null;
}

/** Decimals arrive as strings; a number is accepted and kept as its shortest text. */
function decimalOrNull(value: unknown): string | null {
  if (typeof value === 'string' && value !== '') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  return null;
}

function numberOf(value: unknown): number | null {
  const number = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
  return typeof number === 'number' && Number.isFinite(number) ? number : null;
}

function oneOf<T extends string>(value: unknown, allowed: readonly T[]): value is T {
  return typeof value === 'string' && (allowed as readonly string[]).includes(value);
}

/** A server condition object; null when its type or parameters are not what this client knows. */
export function parseCondition(value: unknown): AlertCondition | null {
  if (!isRecord(value) || !isConditionType(value.type)) return null;
  const { type } = value;
  const ma: MaKind = value.ma === 'ema' ? 'ema' : 'sma';
  const direction: CrossDirection = value.direction === 'up' || value.direction === 'down' ? value.direction : 'any';
  if (oneOf(type, PRICE_LEVEL_CONDITIONS)) {
    const v = decimalOrNull(value.value);
    return v === null ? null : { type, value: v };
  }
  if (oneOf(type, CHANNEL_CONDITIONS)) {
    const low = decimalOrNull(value.low);
    const high = decimalOrNull(value.high);
    return low === null || high === null ? null : { type, low, high };
  }
  const minutes = numberOf(value.minutes);
  if (oneOf(type, MOVING_CONDITIONS)) {
    const amount = decimalOrNull(value.amount);
    return amount === null || minutes === null ? null : { type, amount, minutes };
  }
  if (oneOf(type, MOVING_PERCENT_CONDITIONS)) {
    const percent = decimalOrNull(value.percent);
    return percent === null || minutes === null ? null : { type, percent, minutes };
  }
  if (oneOf(type, RSI_CONDITIONS)) {
    const level = numberOf(value.level);
    return level === null ? null : { type, level, period: numberOf(value.period) ?? CONDITION_DEFAULTS.rsiPeriod };
  }
  if (type === 'price_crossing_ma') {
    const period = numberOf(value.period);
    return period === null ? null : { type, ma, period, direction };
  }
  if (type === 'ma_crossover') {
    const fast = numberOf(value.fast);
    const slow = numberOf(value.slow);
    return fast === null || slow === null ? null : { type, ma, fast, slow, direction };
  }
  const period = (fallback: number): number => numberOf(value.period) ?? fallback;
  const level = numberOf(value.level);
  const factor = numberOf(value.factor);
  if (type === 'volatility_above') return level === null ? null : { type, period: period(CONDITION_DEFAULTS.volatilityPeriod), level };
  if (type === 'volatility_spike') {
    const longPeriod = numberOf(value.longPeriod) ?? CONDITION_DEFAULTS.volatilityLongPeriod;
    return factor === null ? null : { type, period: period(CONDITION_DEFAULTS.volatilityPeriod), longPeriod, factor };
  }
  if (type === 'atr_above') {
    const unit = value.unit === 'percent' ? 'percent' : 'price';
    return level === null ? null : { type, period: period(CONDITION_DEFAULTS.atrPeriod), unit, level };
  }
  if (type === 'bollinger_squeeze') return level === null ? null : { type, period: period(CONDITION_DEFAULTS.bollingerPeriod), level };
  if (type === 'bollinger_breakout') {
    const lookback = numberOf(value.lookback) ?? CONDITION_DEFAULTS.breakoutLookback;
    return factor === null ? null : { type, period: period(CONDITION_DEFAULTS.bollingerPeriod), factor, lookback };
  }
  if (type === 'opening_gap') {
    const percent = numberOf(value.percent);
    return percent === null ? null : { type, percent, direction };
  }
  if (type === 'news') {
    const scope = value.scope === 'filings' || value.scope === 'keywords' ? value.scope : 'any';
    const digest = value.digest === true;
    if (scope !== 'keywords') return { type, scope, digest };
    const keywords = Array.isArray(value.keywords) ? value.keywords.filter((k): k is string => typeof k === 'string') : [];
    return keywords.length ? { type, scope, keywords, digest } : null;
  }
  const { macd } = CONDITION_DEFAULTS;
  return { type, fast: numberOf(value.fast) ?? macd.fast, slow: numberOf(value.slow) ?? macd.slow, signal: numberOf(value.signal) ?? macd.signal, direction };
}

export function parseAlert(value: unknown, where = 'alert'): Alert {
  const source = record(value, where);
  const rawCondition = source.condition;
  const conditionType = isRecord(rawCondition) && typeof rawCondition.type === 'string' ? rawCondition.type : typeof rawCondition === 'string' ? rawCondition : 'unknown';
  const market = isRecord(source.market) ? source.market : null;
  return {
    id: idOf(source.id, `${where}.id`),
    name: text(source.name, `${where}.name`),
    symbol: text(source.symbol ?? market?.symbol, `${where}.symbol`),
    marketType: textOrNull(source.marketType ?? market?.type),
    condition: parseCondition(rawCondition),
    conditionType,
    interval: oneOf(source.interval, CANDLE_INTERVALS) ? source.interval : null,
    frequency: oneOf(source.frequency, TRIGGER_FREQUENCIES) ? source.frequency : 'once',
    cooldownSeconds: numberOf(source.cooldownSeconds) ?? COOLDOWN_SECONDS.default,
    expiresAt: textOrNull(source.expiresAt),
    isActive: source.isActive === true,
    useAudio: source.useAudio === true,
    audioMessage: textOrNull(source.audioMessage),
    audioVoiceId: textOrNull(source.audioVoiceId),
    notifyPush: source.notifyPush === true,
    notifyEmail: source.notifyEmail === true,
    webhookUrl: textOrNull(source.webhookUrl),
    webhookSecret: textOrNull(source.webhookSecret),
    lastTriggered: textOrNull(source.lastTriggered),
    createdAt: textOrNull(source.createdAt),
    updatedAt: textOrNull(source.updatedAt),
  };
}

/** The list: a bare array or `{ items }` / `{ alerts }`. */
export function parseAlertList(body: unknown): Alert[] {
  const list = Array.isArray(body) ? body : isRecord(body) ? (body.items ?? body.alerts) : undefined;
  if (!Array.isArray(list)) fail('alerts', 'a list');
  return list.map((item: unknown, index) => parseAlert(item, `alerts[${index}]`));
}

/** One page of GET /api/alerts: `{ alerts, nextBefore }`; a body without a cursor is the whole list. */
export function parseAlertPage(body: unknown): AlertPage {
  const items = parseAlertList(body);
  const cursor = isRecord(body) ? body.nextBefore : null;
  return { items, nextBefore: typeof cursor === 'string' || typeof cursor === 'number' ? String(cursor) : null };
}

/** One alert: bare or wrapped as `{ alert }`. */
export function parseAlertBody(body: unknown): Alert {
  return parseAlert(isRecord(body) && isRecord(body.alert) ? body.alert : body);
}

export function parseAlertLog(value: unknown, where = 'log'): AlertLog {
  const source = record(value, where);
  return {
    id: idOf(source.id, `${where}.id`),
    triggeredAt: text(source.triggeredAt, `${where}.triggeredAt`),
    value: decimalOrNull(source.value),
    message: textOrNull(source.message),
    wasNotified: source.wasNotified === true,
    webhookStatus: textOrNull(source.webhookStatus),
    webhookAttempts: numberOf(source.webhookAttempts),
    webhookLastError: textOrNull(source.webhookLastError),
  };
}

export function parseAlertLogPage(body: unknown, limit: number): AlertLogPage {
  const source = record(body, 'logs');
  const list = source.items ?? source.logs;
  if (!Array.isArray(list)) fail('logs.items', 'a list');
  const items = list.map((item: unknown, index) => parseAlertLog(item, `logs.items[${index}]`));
  const cursor = source.nextBefore ?? source.nextCursor;
  // Without a cursor from the api: a full page means there may be more, older than its last row.
  const nextBefore =
    typeof cursor === 'string' || typeof cursor === 'number'
      ? String(cursor)
      : cursor === null || items.length < limit
        ? null
        : (items.at(-1)?.id ?? null);
  return { items, nextBefore };
}

export function parseCheckResponse(body: unknown): CheckedAlert[] {
  const source = record(body, 'check');
  if (!Array.isArray(source.triggeredAlerts)) fail('check.triggeredAlerts', 'a list');
  return source.triggeredAlerts.flatMap((item: unknown): CheckedAlert[] => {
    if (!isRecord(item) || (typeof item.id !== 'string' && typeof item.id !== 'number')) return [];
    const logId = item.logId ?? item.alertLogId;
    return [
      {
        id: String(item.id),
        logId: typeof logId === 'string' || typeof logId === 'number' ? String(logId) : null,
        name: typeof item.name === 'string' ? item.name : '',
        message: textOrNull(item.message),
        symbol: textOrNull(item.symbol),
        useAudio: item.useAudio === true,
        audioMessage: textOrNull(item.audioMessage),
        audioVoiceId: textOrNull(item.audioVoiceId),
      },
    ];
  });
}

// ---- Requests ----

function alertPath(id: string): string {
  return `${ALERTS_PATH}/${encodeURIComponent(id)}`;
}

export function alertsPath(before: string | null, limit: number = ALERTS_PAGE_SIZE): string {
  const params = new URLSearchParams({ limit: String(limit) });
  if (before !== null) params.set('before', before);
  return `${ALERTS_PATH}?${params.toString()}`;
}

/** One page of the user's alerts, newest first; `before` is the previous page's nextBefore. */
export function listAlerts(before: string | null = null, signal?: AbortSignal, limit: number = ALERTS_PAGE_SIZE): Promise<AlertPage> {
  return apiRequest(alertsPath(before, limit), { signal, parse: parseAlertPage });
}

export function createAlert(input: AlertInput): Promise<Alert> {
  return sendWithCsrf(ALERTS_PATH, { method: 'POST', body: input, parse: parseAlertBody });
}

export function updateAlert(id: string, patch: AlertPatch): Promise<Alert> {
  return sendWithCsrf(alertPath(id), { method: 'PATCH', body: patch, parse: parseAlertBody });
}

export function deleteAlert(id: string): Promise<void> {
  return sendWithCsrf(alertPath(id), { method: 'DELETE', parse: () => undefined });
}

export const ALERT_LOGS_PAGE_SIZE = 20;

export function alertLogsPath(id: string, before: string | null, limit: number = ALERT_LOGS_PAGE_SIZE): string {
  const params = new URLSearchParams({ limit: String(limit) });
  if (before !== null) params.set('before', before);
  return `${alertPath(id)}/logs?${params.toString()}`;
}

export function getAlertLogs(id: string, before: string | null, signal?: AbortSignal, limit: number = ALERT_LOGS_PAGE_SIZE): Promise<AlertLogPage> {
  return apiRequest(alertLogsPath(id, before, limit), { signal, parse: (body) => parseAlertLogPage(body, limit) });
}

/**
 * The spec's compatibility poll. The spec client sends a userId from local storage; the api
 * answers for the signed-in user whatever it says, so the session user's id is sent as-is.
 */
export function checkTriggeredAlerts(userId: string, signal?: AbortSignal): Promise<CheckedAlert[]> {
  return sendWithCsrf(ALERTS_CHECK_PATH, { method: 'POST', body: { userId }, signal, parse: parseCheckResponse });
}

// HTTP shapes of the alerts domain (/api/alerts): the condition rules, the limits of every field,
// and the alert, log and check bodies. Plain types and constants with no runtime imports (except
// other *.shapes.ts): the web client imports this file as `@tickerbell/jobs/alerts/shapes`, and
// the server's zod schemas (alert-conditions.ts, alert-input.ts) are built from it. Meanings in
// docs/alerts.md.
import { CANDLE_INTERVAL_MS, type CandleInterval } from '../prices/prices.shapes';

// ---- Conditions ----

export const PRICE_LEVEL_CONDITIONS = ['crossing', 'crossing_up', 'crossing_down', 'greater_than', 'less_than'] as const;
export const CHANNEL_CONDITIONS = ['entering_channel', 'exiting_channel', 'inside_channel', 'outside_channel'] as const;
export const MOVING_CONDITIONS = ['moving_up', 'moving_down'] as const;
export const MOVING_PERCENT_CONDITIONS = ['moving_up_percent', 'moving_down_percent'] as const;
export const RSI_CONDITIONS = ['rsi_above', 'rsi_below'] as const;
/** Indicator conditions on closes (RSI, moving averages, MACD). */
export const INDICATOR_CONDITIONS = [...RSI_CONDITIONS, 'price_crossing_ma', 'ma_crossover', 'macd_signal_cross'] as const;
/** Volatility conditions on closed OHLC bars (docs/alerts.md, "Volatility conditions"). */
export const VOLATILITY_CONDITIONS = ['volatility_above', 'volatility_spike', 'atr_above', 'bollinger_squeeze', 'bollinger_breakout', 'opening_gap'] as const;
/** Market types with exchange sessions: the only ones an opening_gap alert may watch. */
export const SESSION_MARKET_TYPES = ['stock', 'etf'] as const;
/** Every condition evaluated on closed bars of the alert's interval ("technical" alerts: they have an interval). */
export const TECHNICAL_CONDITIONS = [...INDICATOR_CONDITIONS, ...VOLATILITY_CONDITIONS] as const;
/** News conditions: fired when a news poll links a new item to the alert's market (docs/alerts.md, "News conditions"). */
export const NEWS_CONDITIONS = ['news'] as const;
export const ALERT_CONDITION_TYPES = [
  ...PRICE_LEVEL_CONDITIONS,
  ...CHANNEL_CONDITIONS,
  ...MOVING_CONDITIONS,
  ...MOVING_PERCENT_CONDITIONS,
  ...TECHNICAL_CONDITIONS,
  ...NEWS_CONDITIONS,
] as const;

export type PriceLevelConditionType = (typeof PRICE_LEVEL_CONDITIONS)[number];
export type ChannelConditionType = (typeof CHANNEL_CONDITIONS)[number];
export type MovingConditionType = (typeof MOVING_CONDITIONS)[number];
export type MovingPercentConditionType = (typeof MOVING_PERCENT_CONDITIONS)[number];
export type RsiConditionType = (typeof RSI_CONDITIONS)[number];
export type TechnicalConditionType = (typeof TECHNICAL_CONDITIONS)[number];
export type VolatilityConditionType = (typeof VOLATILITY_CONDITIONS)[number];

/** Moving averages of price_crossing_ma and ma_crossover. */
export const MA_KINDS = ['sma', 'ema'] as const;
export type MaKind = (typeof MA_KINDS)[number];
/** Which way a crossing counts. */
export const CROSS_DIRECTIONS = ['up', 'down', 'any'] as const;
export type CrossDirection = (typeof CROSS_DIRECTIONS)[number];

/** Thresholds are positive decimal strings that fit numeric(30,10): at most 20 digits, 10 decimals. */
export const DECIMAL_PATTERN = /^\d{1,20}(\.\d{1,10})?$/;
/** The window of moving conditions, in minutes (one day at most: history is kept in memory per symbol). */
export const WINDOW_MINUTES = { min: 1, max: 1440 } as const;
/** Periods of RSI, moving averages and MACD, in bars. */
export const PERIOD_BARS = { min: 2, max: 500 } as const;
/** RSI levels lie strictly between these. */
export const RSI_LEVEL_BOUNDS = { above: 0, below: 100 } as const;
/** ATR thresholds: in price units, or in percent of the bar's close. */
export const ATR_UNITS = ['price', 'percent'] as const;
export type AtrUnit = (typeof ATR_UNITS)[number];
/**
 * Ranges of the volatility parameters: levels are strictly positive and at most `max` (annualised
 * volatility and ATR percent in percent, ATR in price units, Bollinger width as a ratio); factors
 * strictly above `above` (1: "more than its own average") and at most `max`.
 */
export const VOLATILITY_BOUNDS = {
  volatilityPercent: { max: 10_000 },
  atrPrice: { max: 1e15 },
  atrPercent: { max: 1_000 },
  bandWidth: { max: 10 },
  factor: { above: 1, max: 100 },
  lookback: { min: 1, max: 500 },
  gapPercent: { max: 1_000 },
} as const;
/** What the server fills in when a condition leaves a parameter out. */
export const CONDITION_DEFAULTS = {
  rsiPeriod: 14,
  ma: 'sma',
  direction: 'any',
  macd: { fast: 12, slow: 26, signal: 9 },
  volatilityPeriod: 20,
  volatilityLongPeriod: 100,
  atrPeriod: 14,
  atrUnit: 'price',
  bollingerPeriod: 20,
  breakoutLookback: 5,
  gapDirection: 'any',
} as const;
/** Standard deviations of the Bollinger Bands (fixed: the classic 20-bar, 2-sigma bands). */
export const BOLLINGER_DEVIATIONS = 2;

export type PriceCondition =
  | { type: PriceLevelConditionType; value: string }
  | { type: ChannelConditionType; low: string; high: string }
  | { type: MovingConditionType; amount: string; minutes: number }
  | { type: MovingPercentConditionType; percent: string; minutes: number };

export type IndicatorCondition =
  | { type: RsiConditionType; level: number; period: number }
  | { type: 'price_crossing_ma'; ma: MaKind; period: number; direction: CrossDirection }
  | { type: 'ma_crossover'; ma: MaKind; fast: number; slow: number; direction: CrossDirection }
  | { type: 'macd_signal_cross'; fast: number; slow: number; signal: number; direction: CrossDirection };

/** Levels are plain numbers (derived values, compared after rounding to 8 decimals; docs/alerts.md). */
export type VolatilityCondition =
  /** Annualised realised volatility of `period` log returns, in percent, above `level`. */
  | { type: 'volatility_above'; period: number; level: number }
  /** Realised volatility over `period` bars above `factor` times its mean over the last `longPeriod` bars. */
  | { type: 'volatility_spike'; period: number; longPeriod: number; factor: number }
  /** ATR(`period`) above `level` (price units), or above `level` percent of the close. */
  | { type: 'atr_above'; period: number; unit: AtrUnit; level: number }
  /** Bollinger Band width (upper - lower) / middle below `level`. */
  | { type: 'bollinger_squeeze'; period: number; level: number }
  /** Bollinger Band width above `factor` times its value `lookback` bars earlier. */
  | { type: 'bollinger_breakout'; period: number; factor: number; lookback: number }
  /**
   * The first bar of a session (stocks and ETFs) opens more than `percent` % above (up), below
   * (down) or away from (any) the previous session's last close.
   */
  | { type: 'opening_gap'; percent: number; direction: CrossDirection };

/** Conditions evaluated on closed bars. */
export type TechnicalCondition = IndicatorCondition | VolatilityCondition;

/** Which news items a news alert hears of: all, SEC filings only, or those naming one of its keywords. */
export const NEWS_SCOPES = ['any', 'filings', 'keywords'] as const;
export type NewsScope = (typeof NEWS_SCOPES)[number];
/** Keywords of a `keywords` news alert: 1-10, each 2-50 characters, matched as whole words in any case. */
export const NEWS_KEYWORDS = { min: 1, max: 10, minLength: 2, maxLength: 50 } as const;

/**
 * A news alert: fires for each new item linked to its market that its scope admits (under the
 * alert's frequency), or, with `digest`, once per UTC hour listing that hour's items.
 */
export interface NewsCondition {
  type: 'news';
  scope: NewsScope;
  /** Only (and required) with scope `keywords`. */
  keywords?: string[];
  /** One notification per alert and UTC hour listing the hour's items, instead of one per item. */
  digest: boolean;
}

/** A condition as stored and answered (defaults applied). */
export type AlertCondition = PriceCondition | TechnicalCondition | NewsCondition;
export type AlertConditionType = AlertCondition['type'];

// ---- Trigger rules ----

/** docs/alerts.md, "Trigger frequency". */
export const TRIGGER_FREQUENCIES = ['once', 'once_per_day', 'every_time'] as const;
export type TriggerFrequency = (typeof TRIGGER_FREQUENCIES)[number];
/** Cooldown of every_time alerts, in seconds (one day at most). */
export const COOLDOWN_SECONDS = { default: 60, max: 86_400 } as const;
/** Bar interval of a technical alert when the client names none. */
export const DEFAULT_TECHNICAL_INTERVAL: CandleInterval = '1h';

/**
 * When a technical alert on `interval` bars is next checked: the close of the bar in progress
 * (bars are aligned to UTC multiples of their length, as price_bars stores them; a technical
 * condition is evaluated once its bar has closed). The alerts page shows it instead of a bare
 * "Never"; the evaluation's own bar rule is tested to agree with it.
 */
export function nextTechnicalCheck(interval: CandleInterval, now: Date): Date {
  const size = CANDLE_INTERVAL_MS[interval];
  return new Date(Math.floor(now.getTime() / size) * size + size);
}

// ---- Fields and pages ----

export const ALERT_NAME_MAX = 100;
export const ALERT_SYMBOL_MAX = 30;
export const AUDIO_MESSAGE_MAX = 500;
export const AUDIO_VOICE_ID_MAX = 100;
export const WEBHOOK_URL_MAX = 2000;
export const WEBHOOK_SECRET_LENGTH = { min: 16, max: 128 } as const;

/** GET /api/alerts?limit=: 100 by default, 200 at most. */
export const ALERTS_PAGE_SIZE = 100;
export const ALERTS_MAX_PAGE_SIZE = 200;
/** GET /api/alerts/:id/logs?limit=: 50 by default, 200 at most. */
export const ALERT_LOGS_PAGE_SIZE = 50;
export const ALERT_LOGS_MAX_PAGE_SIZE = 200;

// ---- Bodies ----

/** An alert as its owner reads it (every answer of /api/alerts that holds one). */
export interface ClientAlert {
  id: number;
  name: string;
  symbol: string;
  marketType: string;
  /** The validated condition, type included (AlertCondition). */
  condition: Record<string, unknown>;
  /** Bar interval of a technical condition; null for price conditions. */
  interval: string | null;
  frequency: string;
  cooldownSeconds: number;
  expiresAt: string | null;
  isActive: boolean;
  useAudio: boolean;
  audioMessage: string | null;
  audioVoiceId: string | null;
  notifyPush: boolean;
  notifyEmail: boolean;
  webhookUrl: string | null;
  /** Shown to the owner only (every alert route is scoped to the owner): they configure the receiver with it. */
  webhookSecret: string | null;
  lastTriggered: string | null;
  createdAt: string;
  updatedAt: string;
}

/** One firing of an alert, as its owner reads it. */
export interface ClientAlertLog {
  /** bigint, as a string. */
  id: string;
  triggeredAt: string;
  /** The market value that triggered it (decimal string, exact). */
  value: string;
  message: string | null;
  wasNotified: boolean;
  /** null (no webhook), pending, delivered, failed. */
  webhookStatus: string | null;
  webhookAttempts: number;
  /** Why the last webhook attempt failed (the owner debugs their receiver with it). */
  webhookLastError: string | null;
}

/** One entry of POST /api/alerts/crypto/check (the spec's shape plus logId and triggeredAt). */
export interface CheckedAlert {
  /** The alert's id. */
  id: number;
  name: string;
  message: string;
  symbol: string;
  /** The condition type (crossing_up, greater_than, ...). */
  condition: string;
  /** The alert's threshold. */
  value: number;
  /** The price that triggered it. */
  currentPrice: number;
  useAudio: boolean;
  audioMessage: string | null;
  /** Extra: the voice to speak audioMessage with. */
  audioVoiceId: string | null;
  /** The firing (alert_logs id): the client dedupes spoken alerts by it. */
  logId: string;
  triggeredAt: string;
}

/** GET /api/alerts: newest first; `nextBefore` is the `before` of the next page, null on the last. */
export interface AlertListResponse {
  alerts: ClientAlert[];
  nextBefore: string | null;
}

/** GET /api/alerts/:id/logs */
export interface AlertLogListResponse {
  logs: ClientAlertLog[];
  nextBefore: string | null;
}

/** POST /api/alerts (201), PATCH /api/alerts/:id */
export interface AlertResponse {
  alert: ClientAlert;
}

/** POST /api/alerts/crypto/check */
export interface AlertCheckResponse {
  triggeredAlerts: CheckedAlert[];
}

/** POST /api/alerts: name, symbol and condition; everything else has a default. */
export interface CreateAlertRequest {
  name: string;
  symbol: string;
  condition: AlertCondition;
  /** Technical conditions only; 1h when left out. */
  interval?: CandleInterval;
  frequency?: TriggerFrequency;
  cooldownSeconds?: number;
  expiresAt?: string | null;
  isActive?: boolean;
  useAudio?: boolean;
  audioMessage?: string | null;
  audioVoiceId?: string | null;
  notifyPush?: boolean;
  notifyEmail?: boolean;
  webhookUrl?: string | null;
  webhookSecret?: string | null;
}

/** PATCH /api/alerts/:id: any of the fields; null clears a nullable one. */
export type PatchAlertRequest = Partial<CreateAlertRequest>;

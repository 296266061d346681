import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { CANDLE_INTERVALS, type CandleInterval } from '../prices/price-source';
import { productionOutboundUrlProblem } from '../sources/outbound-guard';
import { ExactDecimal, alertConditionSchema, isTechnicalCondition, type AlertCondition } from './alert-conditions';
import {
  ALERT_CONDITION_TYPES,
  ALERT_LOGS_MAX_PAGE_SIZE,
  ALERT_LOGS_PAGE_SIZE,
  ALERT_NAME_MAX,
  ALERT_SYMBOL_MAX,
  ALERTS_MAX_PAGE_SIZE,
  ALERTS_PAGE_SIZE,
  AUDIO_MESSAGE_MAX,
  AUDIO_VOICE_ID_MAX,
  DEFAULT_TECHNICAL_INTERVAL,
  SESSION_MARKET_TYPES,
  WEBHOOK_SECRET_LENGTH,
  WEBHOOK_URL_MAX,
} from './alerts.shapes';
import { triggerRuleSchema } from './alert-frequency';

/**
 * What a client may send to create or edit an alert (POST / PATCH /api/alerts), and how the
 * stored columns derive from it. docs/alerts.md, "Alerts API".
 */

export { ALERT_LOGS_MAX_PAGE_SIZE, ALERT_LOGS_PAGE_SIZE, ALERTS_MAX_PAGE_SIZE, ALERTS_PAGE_SIZE, DEFAULT_TECHNICAL_INTERVAL } from './alerts.shapes';

/**
 * alertConditionSchema, with the type checked first: an unknown type then names `condition.type`
 * and the types there are, instead of the union's bare "Invalid input".
 */
export const alertConditionInputSchema = z.looseObject({ type: z.enum(ALERT_CONDITION_TYPES) }).pipe(alertConditionSchema);

const alertInputFields = {
  name: z.string().trim().min(1).max(ALERT_NAME_MAX),
  symbol: z.string().trim().min(1).max(ALERT_SYMBOL_MAX),
  condition: alertConditionInputSchema,
  // Only for technical conditions (checked with the condition, as it may come from the stored alert).
  interval: z.enum(CANDLE_INTERVALS),
  frequency: triggerRuleSchema.shape.frequency,
  // The default (60) is applied on create only, so a PATCH without it keeps the stored one.
  cooldownSeconds: triggerRuleSchema.shape.cooldownSeconds.unwrap(),
  expiresAt: z.iso.datetime({ offset: true }).nullable(),
  isActive: z.boolean(),
  useAudio: z.boolean(),
  audioMessage: z.string().max(AUDIO_MESSAGE_MAX).nullable(),
  audioVoiceId: z.string().max(AUDIO_VOICE_ID_MAX).nullable(),
  notifyPush: z.boolean(),
  notifyEmail: z.boolean(),
  webhookUrl: z
    .url({ protocol: /^https?$/, error: 'an http(s) URL' })
    .max(WEBHOOK_URL_MAX)
    .nullable(),
  webhookSecret: z.string().min(WEBHOOK_SECRET_LENGTH.min).max(WEBHOOK_SECRET_LENGTH.max).nullable(),
  // The CSRF token may travel in the body (csrf.ts): accepted and ignored.
  csrfToken: z.string().optional(),
};

/** POST /api/alerts. Unknown fields are refused (a misspelt option never goes silently unused). */
export const createAlertBodySchema = z
  .object({
    ...alertInputFields,
    interval: alertInputFields.interval.optional(),
    frequency: alertInputFields.frequency.optional(),
    cooldownSeconds: alertInputFields.cooldownSeconds.optional(),
    expiresAt: alertInputFields.expiresAt.optional(),
    isActive: alertInputFields.isActive.optional(),
    useAudio: alertInputFields.useAudio.optional(),
    audioMessage: alertInputFields.audioMessage.optional(),
    audioVoiceId: alertInputFields.audioVoiceId.optional(),
    notifyPush: alertInputFields.notifyPush.optional(),
    notifyEmail: alertInputFields.notifyEmail.optional(),
    webhookUrl: alertInputFields.webhookUrl.optional(),
    webhookSecret: alertInputFields.webhookSecret.optional(),
  })
  .strict();
export type CreateAlertBody = z.infer<typeof createAlertBodySchema>;

/** PATCH /api/alerts/:id: the same fields, all optional; null clears a nullable one. */
export const patchAlertBodySchema = z.object(alertInputFields).partial().strict();
export type PatchAlertBody = z.infer<typeof patchAlertBodySchema>;

/** GET /api/alerts?active=&symbol=&before=<alertId>&limit= */
export const alertListQuerySchema = z
  .object({
    active: z.enum(['true', 'false']).transform((v) => v === 'true').optional(),
    symbol: z.string().trim().min(1).max(30).optional(),
    before: z.string().regex(/^\d{1,9}$/, 'an alert id').transform(Number).optional(),
    limit: z.coerce.number().int().min(1).max(ALERTS_MAX_PAGE_SIZE).default(ALERTS_PAGE_SIZE),
  })
  .strict();

/** GET /api/alerts/:id/logs?before=<logId>&limit= */
export const alertLogsQuerySchema = z
  .object({
    before: z.string().regex(/^\d{1,18}$/, 'an alert log id').optional(),
    limit: z.coerce.number().int().min(1).max(ALERT_LOGS_MAX_PAGE_SIZE).default(ALERT_LOGS_PAGE_SIZE),
  })
  .strict();

export const alertIdParamSchema = z.object({ id: z.string().regex(/^\d{1,9}$/, 'an alert id').transform(Number) });

/** One field's problem, in the shape the api's validation errors use. */
export interface AlertInputIssue {
  field: string;
  message: string;
}

/** The number that stands for a decimal in the numeric(30,10) column (rounded to 10 places). */
function numericColumn(value: string | number): string {
  return new ExactDecimal(value).toDecimalPlaces(10).toFixed();
}

/**
 * The `alerts.value` column: the condition's main threshold (level, channel low, amount, percent,
 * RSI level, moving-average period; the fast period of crossovers and MACD; a volatility condition's
 * level, or the factor of a spike or breakout).
 */
export function alertThreshold(condition: AlertCondition): string {
  switch (condition.type) {
    case 'crossing':
    case 'crossing_up':
    case 'crossing_down':
    case 'greater_than':
    case 'less_than':
      return numericColumn(condition.value);
    case 'entering_channel':
    case 'exiting_channel':
    case 'inside_channel':
    case 'outside_channel':
      return numericColumn(condition.low);
    case 'moving_up':
    case 'moving_down':
      return numericColumn(condition.amount);
    case 'moving_up_percent':
    case 'moving_down_percent':
      return numericColumn(condition.percent);
    case 'rsi_above':
    case 'rsi_below':
      return numericColumn(condition.level);
    case 'price_crossing_ma':
      return numericColumn(condition.period);
    case 'ma_crossover':
    case 'macd_signal_cross':
      return numericColumn(condition.fast);
    case 'volatility_above':
    case 'atr_above':
    case 'bollinger_squeeze':
      return numericColumn(condition.level);
    case 'volatility_spike':
    case 'bollinger_breakout':
      return numericColumn(condition.factor);
    case 'opening_gap':
      return numericColumn(condition.percent);
    // A news alert has no threshold: the column (NOT NULL) holds 0.
    case 'news':
      return '0';
  }
}

/**
 * The bar interval to store: technical conditions get the requested one (else the current one,
 * else 1h); price conditions none, and asking for one is an error.
 */
export function resolveAlertInterval(
  condition: AlertCondition,
  requested: CandleInterval | undefined,
  current: string | null = null,
): { interval: CandleInterval | null } | { issue: AlertInputIssue } {
  if (!isTechnicalCondition(condition)) {
    if (requested !== undefined) {
      return { issue: { field: 'interval', message: 'only technical conditions (RSI, moving averages, MACD, volatility) have a bar interval' } };
    }
    return { interval: null };
  }
  const known = (CANDLE_INTERVALS as readonly string[]).includes(current ?? '') ? (current as CandleInterval) : null;
  return { interval: requested ?? known ?? DEFAULT_TECHNICAL_INTERVAL };
}

/** An opening gap needs exchange sessions: a market of another type (crypto trades around the clock) is refused. */
export function conditionMarketIssue(condition: AlertCondition, market: { symbol: string; type: string }): AlertInputIssue | null {
  if (condition.type !== 'opening_gap' || (SESSION_MARKET_TYPES as readonly string[]).includes(market.type)) return null;
  return { field: 'condition.type', message: `an opening gap needs a market with sessions (a stock or an ETF); ${market.symbol} is ${market.type}` };
}

/**
 * In production a webhook must be https and not name a loopback or private address literal, so
 * an alert cannot turn the workers against the hosts beside them (the webhook job also checks
 * every address it connects to). Outside production, plain http and local hosts are allowed for testing.
 */
export function checkWebhookUrl(url: string, options: { production: boolean }): AlertInputIssue | null {
  const problem = options.production ? productionOutboundUrlProblem(url) : null;
  return problem ? { field: 'webhookUrl', message: problem } : null;
}

/** A webhook signing secret for an alert whose owner set a URL without one (64 hex characters). */
export function generateWebhookSecret(): string {
  return randomBytes(32).toString('hex');
}

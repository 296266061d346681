import { Router } from 'express';
import type { DataSource } from 'typeorm';
import { z } from 'zod';
import { systemClock, type Clock } from '@tickerbell/jobs';
import type { Entitlements } from '@tickerbell/jobs/billing';
import { telegramConfigured } from '@tickerbell/jobs/notifications';
import {
  YieldsError,
  createYieldAlert,
  deleteYieldAlert,
  listPools,
  listYieldAlerts,
  poolPage,
  poolSeries,
  topPools,
  updateYieldAlert,
  yieldAlertHistory,
  type YieldAlertOptions,
} from '@tickerbell/jobs/yields';
import {
  YIELD_ALERT_CONDITIONS,
  YIELD_ALERT_COOLDOWN_MAX_MINUTES,
  YIELD_ALERT_COOLDOWN_MIN_MINUTES,
  YIELD_ALERT_TYPES,
  YIELD_POOLS_MAX_LIMIT,
  YIELD_POOL_SORTS,
  YIELD_SERIES_MAX_DAYS,
  YIELD_SPIKE_UNITS,
  YIELD_TOP_MAX_LIMIT,
  YIELD_TVL_DROP_WINDOW_MAX_HOURS,
  YIELD_TVL_DROP_WINDOW_MIN_HOURS,
  type YieldAlertHistoryPage,
  type YieldAlertPatch,
  type YieldAlertView,
  type YieldAlertsPage,
  type YieldPoolPage,
  type YieldPoolsPage,
  type YieldSeriesPage,
  type YieldTopPage,
  type YieldsErrorCode,
} from '@tickerbell/jobs/yields/shapes';
import { requireUser, sessionUser } from '../accounts/require-user';
import { HttpError } from '../http/errors';
import { INT4_MAX, idParam, int4Id, pathIdSchema } from '../http/input';

export interface YieldsRouteDeps {
  dataSource: DataSource;
  config: {
    /** Set: email copies of alerts are sent (else they go to the outbox folder): the dialog says so. */
    SMTP_URL?: string;
    /** Set: the Telegram channel is on (docs/notifications.md, "Telegram"). */
    TELEGRAM_BOT_TOKEN?: string;
    /** Default cooldown of a new alert, minutes (the yields domain's variable; 360 when unset). */
    YIELDS_ALERT_COOLDOWN_MINUTES?: number;
  };
  clock?: Clock;
  /** Yield alerts of the user's plan (`yieldAlerts`; the app's one Entitlements). */
  entitlements: Entitlements;
}

// ---- schemas (built from @tickerbell/jobs/yields/shapes) ----------------------------------------

/** A DefiLlama name or slug: letters, digits, spaces and . _ - ( ) only. */
const nameFilter = (max: number, what: string) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max)
    .regex(/^[\p{L}\p{N} ._()+-]+$/u, `${what}: letters, digits, spaces and . _ - ( ) +`);

/** A USD amount, 0 or more, at most 2 decimals. */
const usdFilter = z
  .string()
  .max(30)
  .regex(/^\d{1,20}(\.\d{1,2})?$/, 'a USD amount from 0 with at most 2 decimals (e.g. 1000000)')
  .transform(Number);

/** An opaque cursor of this api: its shape, with the row id it ends with (the last group) an int4. */
const cursorSchema = (shape: RegExp) =>
  z
    .string()
    .max(60)
    .refine((value) => {
      const match = shape.exec(value);
      return match !== null && Number(match[match.length - 1]) <= INT4_MAX;
    }, 'a cursor from nextCursor');

const booleanFlag = z.enum(['true', 'false']).transform((value) => value === 'true');

export const yieldPoolsQuerySchema = z
  .object({
    chain: nameFilter(40, 'a chain name such as Ethereum').optional(),
    dex: nameFilter(60, 'a project slug such as uniswap-v3').optional(),
    token: z
      .string()
      .trim()
      .min(1)
      .max(50)
      .regex(/^(0x[0-9a-fA-F]{40}|[\p{L}\p{N}._+-]{1,30})$/u, 'a token symbol (e.g. USDC) or a 0x token address')
      .optional(),
    stablecoin: booleanFlag.optional(),
    minTvl: usdFilter.optional(),
    sort: z.enum(YIELD_POOL_SORTS).optional(),
    cursor: cursorSchema(/^(-|-?\d{1,30}(\.\d{1,12})?)~(\d{1,10})$/).optional(),
    limit: z.coerce.number().int().min(1).max(YIELD_POOLS_MAX_LIMIT).optional(),
  })
  .strict();

export const yieldPoolParamsSchema = z.object({ id: pathIdSchema });
export const yieldSeriesQuerySchema = z.object({ days: z.coerce.number().int().min(1).max(YIELD_SERIES_MAX_DAYS).optional() }).strict();
export const yieldTopQuerySchema = z.object({ limit: z.coerce.number().int().min(1).max(YIELD_TOP_MAX_LIMIT).optional() }).strict();

/** A threshold in the unit of the alert's type: a number or a decimal string (bounds per type are checked by the store, naming `threshold`). */
const thresholdSchema = z.union([
  z.number(),
  z
    .string()
    .trim()
    .max(30)
    .regex(/^\d{1,20}(\.\d{1,12})?$/, 'a number from 0, e.g. 12.5'),
]);

const alertFields = {
  alertType: z.enum(YIELD_ALERT_TYPES),
  condition: z.enum(YIELD_ALERT_CONDITIONS).optional(),
  threshold: thresholdSchema,
  spikeUnit: z.enum(YIELD_SPIKE_UNITS).optional(),
  windowHours: z.number().int().min(YIELD_TVL_DROP_WINDOW_MIN_HOURS).max(YIELD_TVL_DROP_WINDOW_MAX_HOURS).optional(),
  cooldownMinutes: z.number().int().min(YIELD_ALERT_COOLDOWN_MIN_MINUTES).max(YIELD_ALERT_COOLDOWN_MAX_MINUTES).optional(),
  isActive: z.boolean().optional(),
  emailEnabled: z.boolean().optional(),
  telegramEnabled: z.boolean().optional(),
};

export const yieldAlertBodySchema = z.object({ poolId: z.number().int().min(1).max(INT4_MAX), ...alertFields }).strict();
/** Any field but the pool (an alert on another pool is another alert: the store refuses `poolId`, naming it). */
export const yieldAlertPatchSchema = z
  .object({
    poolId: z.number().int().optional(),
    ...alertFields,
    alertType: alertFields.alertType.optional(),
    threshold: thresholdSchema.optional(),
  })
  .strict();
export const yieldAlertParamsSchema = z.object({ id: pathIdSchema });

export const yieldAlertHistoryQuerySchema = z
  .object({
    alertId: int4Id.optional(),
    cursor: cursorSchema(/^\d{1,15}\.(\d{1,10})$/).optional(),
    limit: z.coerce.number().int().min(1).max(200).optional(),
  })
  .strict();

// ---- routes ----------------------------------------------------------------------------------------

const STATUS: Record<YieldsErrorCode, number> = { not_found: 404, invalid: 400, conflict: 409 };

async function http<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof YieldsError) {
      if (error.code === 'invalid') {
        const field = error.field ?? '(body)';
        throw new HttpError(400, 'validation_failed', `Invalid input: ${field}`, [{ field, message: error.message }]);
      }
      throw new HttpError(STATUS[error.code], error.code, error.message);
    }
    throw error;
  }
}

/** Yields: the pools table, a pool's page and series, the public top pools, and the user's yield alerts with their history. */
export function yieldsRoutes(deps: YieldsRouteDeps): Router {
  const router = Router();
  const db = deps.dataSource;
  const clock = deps.clock ?? systemClock;
  const options: YieldAlertOptions = { defaultCooldownMinutes: deps.config.YIELDS_ALERT_COOLDOWN_MINUTES };
  const channels = { email: Boolean(deps.config.SMTP_URL), telegram: telegramConfigured(deps.config) };

  router.get('/yields/pools', requireUser, async (req, res) => {
    const query = yieldPoolsQuerySchema.parse(req.query);
    const body: YieldPoolsPage = await http(() => listPools(db, query));
    res.json(body);
  });

  router.get('/yields/pools/:id', requireUser, async (req, res) => {
    const id = idParam(req.params.id, 'pool');
    const body: YieldPoolPage = await http(() => poolPage(db, id, clock.now(), sessionUser(req).id));
    res.json(body);
  });

  router.get('/yields/pools/:id/series', requireUser, async (req, res) => {
    const id = idParam(req.params.id, 'pool');
    const { days = 30 } = yieldSeriesQuerySchema.parse(req.query);
    const body: YieldSeriesPage = await http(() => poolSeries(db, id, days, clock.now()));
    res.json(body);
  });

  router.get('/yields/top', async (req, res) => {
    const { limit = 20 } = yieldTopQuerySchema.parse(req.query);
    const body: YieldTopPage = await topPools(db, limit);
    res.set('Cache-Control', 'public, max-age=60').json(body);
  });

  router.get('/yields/alerts', requireUser, async (req, res) => {
    const body: YieldAlertsPage = { rows: await listYieldAlerts(db, sessionUser(req).id), channels };
    res.json(body);
  });

  router.get('/yields/alerts/history', requireUser, async (req, res) => {
    const query = yieldAlertHistoryQuerySchema.parse(req.query);
    const body: YieldAlertHistoryPage = await http(() => yieldAlertHistory(db, sessionUser(req).id, query));
    res.json(body);
  });

  router.post('/yields/alerts', requireUser, async (req, res) => {
    const input = yieldAlertBodySchema.parse(req.body);
    const alert: YieldAlertView = await http(() => createYieldAlert(db, sessionUser(req).id, input, { entitlements: deps.entitlements, now: clock.now() }, options));
    res.status(201).json(alert);
  });

  router.patch('/yields/alerts/:id', requireUser, async (req, res) => {
    const id = idParam(req.params.id, 'yield alert');
    const patch: YieldAlertPatch = yieldAlertPatchSchema.parse(req.body);
    const alert: YieldAlertView = await http(() => updateYieldAlert(db, sessionUser(req).id, id, patch, options));
    res.json(alert);
  });

  router.delete('/yields/alerts/:id', requireUser, async (req, res) => {
    const id = idParam(req.params.id, 'yield alert');
    await http(() => deleteYieldAlert(db, sessionUser(req).id, id));
    res.status(204).end();
  });

  return router;
}

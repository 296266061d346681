import { Router } from 'express';
import type { DataSource } from 'typeorm';
import { z } from 'zod';
import { systemClock, type Clock } from '@tickerbell/jobs';
import type { Entitlements } from '@tickerbell/jobs/billing';
import {
  NETFLOW_MAX_POINTS,
  NetflowRangeError,
  WHALE_CURSOR_PATTERN,
  WHALE_CUSTOM_LABEL_MAX,
  WHALE_FEED_MAX_LIMIT,
  WhaleWatchError,
  createWhaleWatch,
  deleteWhaleWatch,
  exchangeNetflows,
  getWhaleWatch,
  isIanaTimeZone,
  isWhaleAddress,
  listWhaleWatches,
  netflowSeries,
  updateWhaleWatch,
  whaleAddressPage,
  whaleFeed,
  whaleFeedSource,
  whaleLargest,
  type WhaleWatchErrorCode,
  type WhaleWatchFields,
} from '@tickerbell/jobs/whales';
import {
  WHALE_ALERT_FREQUENCIES,
  WHALE_DIRECTIONS,
  WHALE_NETFLOW_BUCKETS,
  type WhaleExchangeSummary,
  type WhaleFeedPage,
  type WhaleFeedSource,
  type WhaleLargestPage,
} from '@tickerbell/jobs/whales/shapes';
import { requireUser, sessionUser } from '../accounts/require-user';
import { HttpError } from '../http/errors';
import { idParam, pathIdSchema } from '../http/input';

export interface WhalesRouteDeps {
  dataSource: DataSource;
  config: {
    /** Set: the live node; unset: the replay twin (the feed says 'replay'). */
    ETH_RPC_URL?: string;
  };
  clock?: Clock;
  /** Watched addresses of the user's plan (`whaleWatches`; the app's one Entitlements). */
  entitlements: Entitlements;
}

// ---- schemas (built from @tickerbell/jobs/whales/shapes) ----------------------------------------

/** 0x + 40 hex, lowercase or a valid EIP-55 checksum. */
export const whaleAddressSchema = z
  .string()
  .max(42, 'an Ethereum address: 0x + 40 hex digits')
  .refine(isWhaleAddress, 'an Ethereum address: 0x + 40 hex digits, lowercase or EIP-55 checksummed')
  .transform((value) => value.toLowerCase());

/** USD with at most 2 decimals, from 0 to numeric(24,2)'s maximum; null: the global threshold. */
const usdThresholdSchema = z
  .union([z.number(), z.string().max(30)])
  .transform((value, ctx) => {
    const text = typeof value === 'number' ? String(value) : value.trim();
    if (!/^\d{1,22}(\.\d{1,2})?$/.test(text) || (typeof value === 'number' && !Number.isFinite(value))) {
      ctx.addIssue({ code: 'custom', message: 'a USD amount from 0 with at most 2 decimals (e.g. 1000000 or "250000.50")' });
      return z.NEVER;
    }
    return text;
  })
  .nullable();

const timeZoneSchema = z.string().max(64).refine(isIanaTimeZone, 'an IANA time zone such as Europe/Paris or UTC');
const customLabelSchema = z
  .string()
  .trim()
  .max(WHALE_CUSTOM_LABEL_MAX)
  .transform((value) => value || null)
  .nullable();

const watchFields = {
  customLabel: customLabelSchema.optional(),
  alertEnabled: z.boolean().optional(),
  alertThreshold: usdThresholdSchema.optional(),
  alertFrequency: z.enum(WHALE_ALERT_FREQUENCIES).optional(),
  timeZone: timeZoneSchema.optional(),
};

export const whaleWatchBodySchema = z.object({ address: whaleAddressSchema, ...watchFields }).strict();
/** Everything but the address may change (watching another address is another watch); the address may be repeated unchanged. */
export const whaleWatchPatchSchema = z.object({ address: whaleAddressSchema.optional(), ...watchFields }).strict();
export const whaleWatchParamsSchema = z.object({ id: pathIdSchema });
export const whaleAddressParamsSchema = z.object({ address: whaleAddressSchema });

/** 'ETH' or a token contract address. */
const tokenFilterSchema = z
  .string()
  .max(42)
  .refine((value) => value.toUpperCase() === 'ETH' || isWhaleAddress(value), 'ETH or a token contract address (0x + 40 hex)')
  .transform((value) => (value.toUpperCase() === 'ETH' ? 'ETH' : value.toLowerCase()));
const minUsdSchema = z
  .string()
  .max(30)
  .regex(/^\d{1,22}(\.\d{1,2})?$/, 'a USD amount from 0 with at most 2 decimals');
const exchangeSchema = z.string().trim().min(1).max(100);

export const whaleTransfersQuerySchema = z
  .object({
    token: tokenFilterSchema.optional(),
    minUsd: minUsdSchema.optional(),
    direction: z.enum(WHALE_DIRECTIONS).optional(),
    exchange: exchangeSchema.optional(),
    address: whaleAddressSchema.optional(),
    cursor: z.string().max(42).regex(WHALE_CURSOR_PATTERN, 'a cursor from nextCursor').optional(),
    limit: z.coerce.number().int().min(1).max(WHALE_FEED_MAX_LIMIT).optional(),
  })
  .strict();

export const whaleLargestQuerySchema = z.object({ hours: z.coerce.number().int().min(1).max(168).optional() }).strict();

/** An instant: an ISO 8601 date or date-time (UTC when no offset is given). */
const instantSchema = z
  .string()
  .max(40)
  .regex(/^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?)?$/, 'an ISO 8601 date or date-time')
  .transform((value, ctx) => {
    const date = new Date(/T.*(Z|[+-]\d{2}:\d{2})$/.test(value) || !value.includes('T') ? value : `${value}Z`);
    if (Number.isNaN(date.getTime())) {
      ctx.addIssue({ code: 'custom', message: 'a date that exists' });
      return z.NEVER;
    }
    return date;
  });

export const whaleNetflowQuerySchema = z
  .object({
    exchange: exchangeSchema,
    token: tokenFilterSchema.optional(),
    bucket: z.enum(WHALE_NETFLOW_BUCKETS).optional(),
    from: instantSchema.optional(),
    to: instantSchema.optional(),
  })
  .strict();

// ---- routes ----------------------------------------------------------------------------------------

const STATUS: Record<WhaleWatchErrorCode, number> = { not_found: 404, duplicate: 409 };

async function http<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof WhaleWatchError) throw new HttpError(STATUS[error.code], error.code, error.message, error.details);
    if (error instanceof NetflowRangeError) throw new HttpError(400, 'validation_failed', `Invalid input: ${error.field}`, [{ field: error.field, message: error.message }]);
    throw error;
  }
}

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** Whales: the live feed, the largest transfers (public), address pages, the watchlist, netflow. */
export function whalesRoutes(deps: WhalesRouteDeps): Router {
  const router = Router();
  const db = deps.dataSource;
  const clock = deps.clock ?? systemClock;
  const source = (): Promise<WhaleFeedSource> => whaleFeedSource(db, deps.config.ETH_RPC_URL ? 'live' : 'replay');
  const { entitlements } = deps;

  router.get('/whales/transfers', requireUser, async (req, res) => {
    const query = whaleTransfersQuerySchema.parse(req.query);
    const page = await whaleFeed(db, { ...query, viewerId: sessionUser(req).id, limit: query.limit ?? 50 });
    const body: WhaleFeedPage = { ...page, source: await source() };
    res.json(body);
  });

  router.get('/whales/largest', async (req, res) => {
    const hours = whaleLargestQuerySchema.parse(req.query).hours ?? 24;
    const body: WhaleLargestPage = { hours, rows: await whaleLargest(db, { hours, now: clock.now() }), source: await source() };
    res.set('Cache-Control', 'public, max-age=30').json(body);
  });

  router.get('/whales/addresses/:address', requireUser, async (req, res) => {
    const { address } = whaleAddressParamsSchema.parse(req.params);
    res.json(await whaleAddressPage(db, { address, viewerId: sessionUser(req).id, now: clock.now() }));
  });

  router.get('/whales/watchlist', requireUser, async (req, res) => {
    const userId = sessionUser(req).id;
    // The plan's limit (null: unlimited).
    const { limits } = await entitlements.ofUser(db, userId, clock.now());
    res.json({ watches: await listWhaleWatches(db, userId), limit: limits.whaleWatches });
  });

  router.post('/whales/watchlist', requireUser, async (req, res) => {
    const body = whaleWatchBodySchema.parse(req.body);
    const fields: WhaleWatchFields = {
      customLabel: body.customLabel ?? null,
      alertEnabled: body.alertEnabled ?? true,
      alertThreshold: body.alertThreshold ?? null,
      alertFrequency: body.alertFrequency ?? 'immediate',
      timeZone: body.timeZone ?? 'UTC',
    };
    const watch = await http(() => createWhaleWatch(db, sessionUser(req).id, body.address, fields, { entitlements, now: clock.now() }));
    res.status(201).json(watch);
  });

  router.patch('/whales/watchlist/:id', requireUser, async (req, res) => {
    const userId = sessionUser(req).id;
    const id = idParam(req.params.id, 'watch');
    const { address, ...patch } = whaleWatchPatchSchema.parse(req.body);
    if (address !== undefined) {
      const current = await getWhaleWatch(db, userId, id);
      if (!current) throw new HttpError(404, 'not_found', 'No such watch');
      if (current.address !== address) {
        throw new HttpError(400, 'validation_failed', 'Invalid input: address', [
          { field: 'address', message: 'the address of a watch cannot change: watch the new address and delete this watch' },
        ]);
      }
    }
    res.json(await http(() => updateWhaleWatch(db, userId, id, patch)));
  });

  router.delete('/whales/watchlist/:id', requireUser, async (req, res) => {
    await http(() => deleteWhaleWatch(db, sessionUser(req).id, idParam(req.params.id, 'watch')));
    res.status(204).end();
  });

  router.get('/whales/netflow', requireUser, async (req, res) => {
    const query = whaleNetflowQuerySchema.parse(req.query);
    const bucket = query.bucket ?? 'hour';
    const to = query.to ?? clock.now();
    // Default span: 2 days of hours, 30 days of days.
    const from = query.from ?? new Date(to.getTime() - (bucket === 'hour' ? 48 * HOUR_MS : 30 * DAY_MS));
    if (from.getTime() > to.getTime()) {
      throw new HttpError(400, 'validation_failed', 'Invalid input: from', [{ field: 'from', message: 'from must not be after to' }]);
    }
    if ((to.getTime() - from.getTime()) / (bucket === 'hour' ? HOUR_MS : DAY_MS) >= NETFLOW_MAX_POINTS) {
      throw new HttpError(400, 'validation_failed', 'Invalid input: from', [{ field: 'from', message: `at most ${NETFLOW_MAX_POINTS} ${bucket} buckets per series` }]);
    }
    res.json(await http(() => netflowSeries(db, { exchange: query.exchange, token: query.token ?? null, bucket, from, to })));
  });

  router.get('/whales/exchanges', requireUser, async (_req, res) => {
    const exchanges: WhaleExchangeSummary[] = await exchangeNetflows(db, { since: new Date(clock.now().getTime() - 24 * HOUR_MS) });
    res.json({ exchanges });
  });

  return router;
}

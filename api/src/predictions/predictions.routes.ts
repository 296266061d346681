import { Router } from 'express';
import type { DataSource } from 'typeorm';
import { z } from 'zod';
import { systemClock, type Clock } from '@tickerbell/jobs';
import type { Entitlements } from '@tickerbell/jobs/billing';
import {
  DEFAULT_CONSENSUS_WINDOW,
  DEFAULT_MAX_FOLLOWS,
  MISPRICING_PAGE_MAX,
  PREDICTION_FORECASTS_MAX_LIMIT,
  PREDICTION_INPUT_MAX,
  PredictionsError,
  canForecastOn,
  consensusOf,
  findMarket,
  follow,
  forecastsOnMarket,
  isFollowing,
  listFollows,
  listForecasts,
  listMarkets,
  listMispricing,
  makeForecast,
  marketHistory,
  marketView,
  mispricingOfMarket,
  performanceOf,
  predictionsResearch,
  unfollow,
  withdrawForecast,
  type PredictionsErrorCode,
} from '@tickerbell/jobs/predictions';
import {
  PREDICTION_MARKET_SORTS,
  PREDICTION_NOTES_MAX,
  type MispricingPage,
  type PredictionFollowView,
  type PredictionForecastView,
  type PredictionForecastsPage,
  type PredictionMarketPage,
  type PredictionMarketsPage,
  type PredictionPerformanceView,
} from '@tickerbell/jobs/predictions/shapes';
import { requireUser, sessionUser } from '../accounts/require-user';
import { HttpError } from '../http/errors';
import { idParam, int4Id, pathIdSchema } from '../http/input';

export interface PredictionsRouteDeps {
  dataSource: DataSource;
  /** A read-only account (billing) follows nothing new: 402 (the app's one Entitlements). */
  entitlements: Entitlements;
  config: {
    /** Markets and categories one user may follow (default DEFAULT_MAX_FOLLOWS). */
    PREDICTIONS_MAX_FOLLOWS?: number;
    /** The consensus the market page shows: the window and the fewest forecasters (defaults DEFAULT_CONSENSUS_WINDOW). */
    PREDICTIONS_CONSENSUS_DAYS?: number;
    PREDICTIONS_CONSENSUS_MIN_FORECASTERS?: number;
  };
  clock?: Clock;
}

/** How much of a market's snapshot history its page answers. */
const HISTORY_DAYS = 90;
const DAY_MS = 86_400_000;
/** Default and largest page of the browser (listMarkets caps at 200 too). */
const MARKETS_DEFAULT_LIMIT = 50;
const MARKETS_MAX_LIMIT = 200;

// ---- schemas (built from @tickerbell/jobs/predictions/shapes) -----------------------------------

const categorySchema = z.string().trim().min(1, 'a category name').max(50, 'at most 50 characters');
const cursorSchema = z.string().min(1).max(200, 'a cursor from nextCursor');
/** A USD amount in a query: a decimal from 0, at most 15 digits before the point. */
const usdQuerySchema = z
  .string()
  .max(30)
  .regex(/^\d{1,15}(\.\d{1,2})?$/, 'a USD amount from 0 with at most 2 decimals')
  .transform(Number);

export const predictionMarketsQuerySchema = z
  .object({
    q: z.string().trim().max(200, 'at most 200 characters').optional(),
    category: categorySchema.optional(),
    status: z.enum(['active', 'closed', 'all']).optional(),
    sort: z.enum(PREDICTION_MARKET_SORTS).optional(),
    minVolume: usdQuerySchema.optional(),
    minLiquidity: usdQuerySchema.optional(),
    closingWithinDays: z.coerce.number().int().min(1).max(3650).optional(),
    cursor: cursorSchema.optional(),
    limit: z.coerce.number().int().min(1).max(MARKETS_MAX_LIMIT).optional(),
  })
  .strict();

export const predictionMarketParamsSchema = z.object({ id: pathIdSchema });
export const predictionFollowParamsSchema = z.object({ id: pathIdSchema });

/**
 * A forecast as typed: "0.62", "62%", "3:2" (or a JSON number: 0.62, 62). The api's parse
 * (parseForecastInput) decides what it means and refuses a probability outside (0, 1) naming
 * `prediction`; confidence is a whole number 0..100; notes at most PREDICTION_NOTES_MAX characters.
 */
export const predictionForecastBodySchema = z
  .object({
    prediction: z
      .union([z.string().trim().min(1, 'a probability (0.62), a percentage (62%) or odds (3:2)').max(PREDICTION_INPUT_MAX), z.number().finite()])
      .transform((value) => String(value)),
    confidence: z.number().int('a whole number from 0 to 100').min(0).max(100).nullable().optional(),
    notes: z.string().max(PREDICTION_NOTES_MAX, `at most ${PREDICTION_NOTES_MAX} characters`).nullable().optional(),
  })
  .strict();

/** Follows a market ({ marketId }) or a category ({ category }): exactly one of them. */
export const predictionFollowBodySchema = z
  .object({ marketId: int4Id.optional(), category: categorySchema.optional() })
  .strict()
  .superRefine((value, ctx) => {
    if ((value.marketId === undefined) === (value.category === undefined)) {
      ctx.addIssue({ code: 'custom', path: [value.marketId === undefined ? 'marketId' : 'category'], message: 'either marketId or category, not both' });
    }
  });

export const predictionForecastsQuerySchema = z
  .object({
    status: z.enum(['open', 'resolved', 'all']).optional(),
    cursor: cursorSchema.optional(),
    limit: z.coerce.number().int().min(1).max(PREDICTION_FORECASTS_MAX_LIMIT).optional(),
  })
  .strict();

export const predictionMispricingQuerySchema = z
  .object({
    active: z.enum(['true', 'false']).optional(),
    category: categorySchema.optional(),
    cursor: cursorSchema.optional(),
    limit: z.coerce.number().int().min(1).max(MISPRICING_PAGE_MAX).optional(),
  })
  .strict();

// ---- errors ------------------------------------------------------------------------------------

/**
 * The one table of PredictionsError codes to HTTP statuses (docs/predictions.md, "API"). A 400 is
 * the usual `validation_failed` naming its field; the others keep their code. An unknown category
 * is 404 like an unknown market: both name reference data that does not exist (the request itself
 * is well formed).
 */
export const PREDICTIONS_STATUS: Readonly<Record<PredictionsErrorCode, number>> = {
  invalid_prediction: 400,
  bad_cursor: 400,
  unknown_market: 404,
  unknown_category: 404,
  no_forecast: 404,
  unknown_follow: 404,
  unknown_user: 404,
  market_closed: 409,
  no_market_price: 409,
  too_many_follows: 403,
};

/** The field a 400 names when the store gave none. */
const DEFAULT_FIELD: Partial<Record<PredictionsErrorCode, string>> = { invalid_prediction: 'prediction', bad_cursor: 'cursor' };

export function predictionsHttpError(error: PredictionsError): HttpError {
  const status = PREDICTIONS_STATUS[error.code];
  const field = error.field ?? DEFAULT_FIELD[error.code];
  if (status === 400) return new HttpError(400, 'validation_failed', `Invalid input: ${field ?? '(body)'}`, [{ field: field ?? '', message: error.message }]);
  return new HttpError(status, error.code, error.message, field ? [{ field, message: error.message }] : undefined);
}

async function http<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof PredictionsError) throw predictionsHttpError(error);
    throw error;
  }
}

// ---- routes ------------------------------------------------------------------------------------

/** Predictions: the markets browser, a market's page, forecasts, performance, the mispricing feed, follows. All signed in. */
export function predictionsRoutes(deps: PredictionsRouteDeps): Router {
  const router = Router();
  const db = deps.dataSource;
  const clock = deps.clock ?? systemClock;
  const maxFollows = deps.config.PREDICTIONS_MAX_FOLLOWS ?? DEFAULT_MAX_FOLLOWS;
  const consensusWindow = {
    days: deps.config.PREDICTIONS_CONSENSUS_DAYS ?? DEFAULT_CONSENSUS_WINDOW.days,
    minForecasters: deps.config.PREDICTIONS_CONSENSUS_MIN_FORECASTERS ?? DEFAULT_CONSENSUS_WINDOW.minForecasters,
  };
  const marketId = (raw: unknown) => idParam(raw, 'market');

  router.get('/predictions/research', async (_req, res) => {
    res.set('Cache-Control', 'public, max-age=60').json(await predictionsResearch(db, clock.now()));
  });

  router.get('/predictions/markets', requireUser, async (req, res) => {
    const query = predictionMarketsQuerySchema.parse(req.query);
    const page: PredictionMarketsPage = await http(() =>
      listMarkets(db, { ...query, status: query.status ?? 'active', sort: query.sort ?? 'volume', limit: query.limit ?? MARKETS_DEFAULT_LIMIT }, clock.now()),
    );
    res.json(page);
  });

  router.get('/predictions/markets/:id', requireUser, async (req, res) => {
    const id = marketId(req.params.id);
    const userId = sessionUser(req).id;
    const row = await findMarket(db, id);
    if (!row) throw predictionsHttpError(new PredictionsError('unknown_market', 'No such market'));
    const now = clock.now();
    const [history, forecasts, consensus, mispricing, following] = await Promise.all([
      marketHistory(db, id, new Date(now.getTime() - HISTORY_DAYS * DAY_MS)),
      forecastsOnMarket(db, userId, id),
      consensusOf(db, id, now, consensusWindow),
      mispricingOfMarket(db, id),
      isFollowing(db, userId, id),
    ]);
    const body: PredictionMarketPage = { market: marketView(row), history, forecasts, consensus, mispricing, following, canForecast: canForecastOn(row, now) };
    res.json(body);
  });

  router.post('/predictions/markets/:id/forecasts', requireUser, async (req, res) => {
    const id = marketId(req.params.id);
    const body = predictionForecastBodySchema.parse(req.body);
    const forecast: PredictionForecastView = await http(() =>
      makeForecast(db, { userId: sessionUser(req).id, marketId: id, prediction: body.prediction, confidence: body.confidence ?? null, notes: body.notes ?? null }, clock.now()),
    );
    res.status(201).json(forecast);
  });

  router.delete('/predictions/markets/:id/forecasts', requireUser, async (req, res) => {
    const id = marketId(req.params.id);
    await http(() => withdrawForecast(db, sessionUser(req).id, id, clock.now()));
    res.status(204).end();
  });

  router.get('/predictions/forecasts', requireUser, async (req, res) => {
    const query = predictionForecastsQuerySchema.parse(req.query);
    const page: PredictionForecastsPage = await http(() => listForecasts(db, sessionUser(req).id, { status: query.status ?? 'all', cursor: query.cursor, limit: query.limit ?? 50 }));
    res.json(page);
  });

  router.get('/predictions/performance', requireUser, async (req, res) => {
    const performance: PredictionPerformanceView = await performanceOf(db, sessionUser(req).id);
    res.json(performance);
  });

  router.get('/predictions/mispricing', requireUser, async (req, res) => {
    const query = predictionMispricingQuerySchema.parse(req.query);
    const page: MispricingPage = await http(() => listMispricing(db, { active: query.active !== 'false', category: query.category, cursor: query.cursor, limit: query.limit ?? 50 }));
    res.json(page);
  });

  router.get('/predictions/follows', requireUser, async (req, res) => {
    const follows: PredictionFollowView[] = await listFollows(db, sessionUser(req).id);
    res.json({ follows, limit: maxFollows });
  });

  router.post('/predictions/follows', requireUser, async (req, res) => {
    const body = predictionFollowBodySchema.parse(req.body);
    // A follow is a tracked item (it notifies); forecasts are not (a one-off entry, scored, never watched).
    await deps.entitlements.checkWritable(db, sessionUser(req).id, clock.now());
    const target = body.marketId !== undefined ? { marketId: body.marketId } : { category: body.category as string };
    const created: PredictionFollowView = await http(() => follow(db, sessionUser(req).id, target, { maxFollows }));
    res.status(201).json(created);
  });

  router.delete('/predictions/follows/:id', requireUser, async (req, res) => {
    await http(() => unfollow(db, sessionUser(req).id, idParam(req.params.id, 'follow')));
    res.status(204).end();
  });

  return router;
}

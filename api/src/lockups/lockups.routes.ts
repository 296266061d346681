import { Router } from 'express';
import type { DataSource } from 'typeorm';
import { z } from 'zod';
import { systemClock, type Clock } from '@tickerbell/jobs';
import type { Entitlements } from '@tickerbell/jobs/billing';
import {
  LockupsError,
  addDays,
  createLockupFollow,
  deleteLockupFollow,
  listLockupFollows,
  lockupCalendar,
  lockupEventDetail,
  lockupResearch,
  lockupsSourceStatus,
  lockupsToday,
  updateLockupFollow,
} from '@tickerbell/jobs/lockups';
import {
  LOCKUP_CALENDAR_MAX_DAYS,
  LOCKUP_CALENDAR_MAX_LIMIT,
  LOCKUP_FOLLOW_KINDS,
  LOCKUP_NOTICE_DAYS,
  LOCKUP_RESEARCH_DAYS,
  type LockupCalendarResponse,
  type LockupEventDetail,
  type LockupFollowInput,
  type LockupFollowView,
  type LockupNoticeDays,
} from '@tickerbell/jobs/lockups/shapes';
import { requireUser, sessionUser } from '../accounts/require-user';
import { HttpError, notFound } from '../http/errors';
import { idParam, pathIdSchema } from '../http/input';

export interface LockupsRouteDeps {
  dataSource: DataSource;
  config: {
    /** live: EDGAR; replay: recorded and simulated prospectuses (the lockups domain's variable; replay when unset). */
    LOCKUPS_SOURCE?: 'live' | 'replay';
  };
  clock?: Clock;
  /** Lock-up follows of the user's plan (`lockupFollows`; the app's one Entitlements). */
  entitlements: Entitlements;
}

/** GET /api/lockups/research: the public list of the next LOCKUP_RESEARCH_DAYS days. */
export type LockupResearchResponse = Pick<LockupCalendarResponse, 'from' | 'to' | 'events' | 'source'>;

// ---- schemas (built from @tickerbell/jobs/lockups/shapes) ---------------------------------------

/** A calendar date YYYY-MM-DD that exists. */
const dateSchema = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'a date YYYY-MM-DD')
  .refine((value) => {
    const date = new Date(`${value}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
  }, 'a date that exists');

/** `true`/`false` (or 1/0) in a query string. */
const flagSchema = z.enum(['true', 'false', '1', '0']).transform((value) => value === 'true' || value === '1');

const DAY_MS = 86_400_000;
const daysBetween = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);

/** A ticker as exchanges list it: BRK.B, BF-B, ABNB (upper-cased, as the store keeps it). */
export const lockupTickerSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9][A-Za-z0-9.-]{0,19}$/, 'a ticker: letters, digits, . and - (at most 20)')
  .transform((value) => value.toUpperCase());

const riskSchema = z.number().min(0).max(100);
const noticeDaysSchema = z
  .array(z.literal(LOCKUP_NOTICE_DAYS, { error: `one of ${LOCKUP_NOTICE_DAYS.join(', ')}` }))
  .max(LOCKUP_NOTICE_DAYS.length)
  .refine((days) => new Set(days).size === days.length, `each of ${LOCKUP_NOTICE_DAYS.join(', ')} at most once`)
  .transform((days) => [...days].sort((a, b) => b - a) as LockupNoticeDays[]);

export const lockupCalendarQuerySchema = z
  .object({
    from: dateSchema.optional(),
    to: dateSchema.optional(),
    minRisk: z.coerce.number().min(0).max(100).optional(),
    minFloatShare: z.coerce.number().min(0).max(1).optional(),
    industry: z
      .string()
      .trim()
      .min(1)
      .max(80)
      .regex(/^[\p{L}\p{N} ,.&()/'-]+$/u, 'an industry name: letters, digits, spaces and , . & ( ) / \' -')
      .optional(),
    vcBacked: flagSchema.optional(),
    includeReview: flagSchema.optional(),
    limit: z.coerce.number().int().min(1).max(LOCKUP_CALENDAR_MAX_LIMIT).optional(),
  })
  .strict();

export const lockupEventParamsSchema = z.object({ id: pathIdSchema });
export const lockupFollowParamsSchema = z.object({ id: pathIdSchema });

/** POST /api/lockups/follows: a ticker ({ kind: 'ticker', ticker }) or every event at or above a risk score ({ kind: 'risk', minRiskScore }). */
export const lockupFollowBodySchema = z
  .object({
    kind: z.enum(LOCKUP_FOLLOW_KINDS),
    ticker: lockupTickerSchema.optional(),
    minRiskScore: riskSchema.optional(),
    noticeDays: noticeDaysSchema.optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    if (body.kind === 'ticker') {
      if (body.ticker === undefined) ctx.addIssue({ code: 'custom', path: ['ticker'], message: 'required when kind is ticker' });
      if (body.minRiskScore !== undefined) ctx.addIssue({ code: 'custom', path: ['minRiskScore'], message: 'only with kind risk' });
    } else {
      if (body.minRiskScore === undefined) ctx.addIssue({ code: 'custom', path: ['minRiskScore'], message: 'required when kind is risk (0 to 100)' });
      if (body.ticker !== undefined) ctx.addIssue({ code: 'custom', path: ['ticker'], message: 'only with kind ticker' });
    }
  });

/** PATCH /api/lockups/follows/:id: the notice days, and the score of a risk follow. */
export const lockupFollowPatchSchema = z
  .object({ noticeDays: noticeDaysSchema.optional(), minRiskScore: riskSchema.optional() })
  .strict()
  .refine((body) => body.noticeDays !== undefined || body.minRiskScore !== undefined, { message: 'noticeDays or minRiskScore', path: ['noticeDays'] });

// ---- routes -------------------------------------------------------------------------------------

const STATUS: Record<LockupsError['code'], { status: number; code: string }> = {
  invalid_follow: { status: 400, code: 'validation_failed' },
  follow_exists: { status: 409, code: 'follow_exists' },
  not_found: { status: 404, code: 'not_found' },
};

/** The domain's refusals as statuses; an invalid follow is the 400 naming its field. */
async function http<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof LockupsError) {
      const { status, code } = STATUS[error.code];
      if (status === 400) {
        const field = error.field ?? '(body)';
        throw new HttpError(400, code, `Invalid input: ${field}`, [{ field, message: error.message }]);
      }
      throw new HttpError(status, code, error.message);
    }
    throw error;
  }
}


/** Lock-up expirations: the calendar and an event (signed in), the public next 30 days, and the user's follows. */
export function lockupsRoutes(deps: LockupsRouteDeps): Router {
  const router = Router();
  const db = deps.dataSource;
  const clock = deps.clock ?? systemClock;
  const mode = deps.config.LOCKUPS_SOURCE ?? 'replay';

  router.get('/lockups/calendar', requireUser, async (req, res) => {
    const query = lockupCalendarQuerySchema.parse(req.query);
    // Today in New York, as the jobs count days to an expiry.
    const today = lockupsToday(clock.now());
    // A range given by one end: the other is 30 days away.
    const from = query.from ?? (query.to ? addDays(query.to, -LOCKUP_RESEARCH_DAYS) : today);
    const to = query.to ?? addDays(from, LOCKUP_RESEARCH_DAYS);
    if (to < from) throw new HttpError(400, 'validation_failed', 'Invalid input: to', [{ field: 'to', message: 'on or after from' }]);
    if (daysBetween(from, to) > LOCKUP_CALENDAR_MAX_DAYS) {
      throw new HttpError(400, 'validation_failed', 'Invalid input: to', [{ field: 'to', message: `at most ${LOCKUP_CALENDAR_MAX_DAYS} days after from` }]);
    }
    const body: LockupCalendarResponse = await http(() => lockupCalendar(db, { ...query, from, to }, mode));
    res.set('Cache-Control', 'private, no-store').json(body);
  });

  router.get('/lockups/events/:id', requireUser, async (req, res) => {
    const id = idParam(req.params.id, 'lock-up event');
    const event: LockupEventDetail | null = await lockupEventDetail(db, id);
    if (!event) throw notFound(`No lock-up event ${id}`);
    res.json(event);
  });

  router.get('/lockups/research', async (_req, res) => {
    const from = lockupsToday(clock.now());
    const [events, source] = await Promise.all([lockupResearch(db, from), lockupsSourceStatus(db, mode)]);
    const body: LockupResearchResponse = { from, to: addDays(from, LOCKUP_RESEARCH_DAYS), events, source };
    res.set('Cache-Control', 'public, max-age=300').json(body);
  });

  router.get('/lockups/follows', requireUser, async (req, res) => {
    const follows: LockupFollowView[] = await listLockupFollows(db, sessionUser(req).id);
    res.set('Cache-Control', 'no-store').json(follows);
  });

  router.post('/lockups/follows', requireUser, async (req, res) => {
    const input: LockupFollowInput = lockupFollowBodySchema.parse(req.body);
    const follow: LockupFollowView = await http(() => createLockupFollow(db, sessionUser(req).id, input, { entitlements: deps.entitlements, now: clock.now() }));
    res.status(201).json(follow);
  });

  router.patch('/lockups/follows/:id', requireUser, async (req, res) => {
    const id = idParam(req.params.id, 'lock-up follow');
    const patch = lockupFollowPatchSchema.parse(req.body);
    const follow = await http(() => updateLockupFollow(db, sessionUser(req).id, id, patch));
    // Another user's follow is the same 404 as one that does not exist.
    if (!follow) throw notFound('No such lock-up follow');
    res.json(follow);
  });

  router.delete('/lockups/follows/:id', requireUser, async (req, res) => {
    const id = idParam(req.params.id, 'lock-up follow');
    if (!(await http(() => deleteLockupFollow(db, sessionUser(req).id, id)))) throw notFound('No such lock-up follow');
    res.status(204).end();
  });

  return router;
}

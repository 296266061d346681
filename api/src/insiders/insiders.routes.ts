import { Router, type Request } from 'express';
import type { DataSource } from 'typeorm';
import { z } from 'zod';
import { systemClock, type Clock, type JobQueues } from '@tickerbell/jobs';
import type { Entitlements } from '@tickerbell/jobs/billing';
import {
  InsiderQueryError,
  deleteInsiderFollow,
  insiderCompanyPage,
  insiderPage,
  insiderScreener,
  insiderScreenerCsv,
  insidersJobIds,
  latestInsiderClusterBuys,
  latestInsiderFilings,
  listInsiderFollows,
  searchInsiderCompanies,
  storedFiling,
  upsertInsiderFollow,
} from '@tickerbell/jobs/insiders';
import {
  INSIDER_CSV_MAX_ROWS,
  INSIDER_ROLES,
  INSIDER_SCREENER_MAX_LIMIT,
  INSIDER_SORT_KEYS,
  OFFICER_BUY_DEFAULT_MIN_VALUE,
  TRANSACTION_CODE_LIST,
  TRANSACTION_TABLES,
  type InsiderFollowSettings,
  type InsiderRole,
  type InsiderScreenerQuery,
  type TransactionCode,
} from '@tickerbell/jobs/insiders/shapes';
import { requireUser, sessionUser } from '../accounts/require-user';
import { HttpError, notFound } from '../http/errors';

export interface InsidersRouteDeps {
  dataSource: DataSource;
  /** The follow of a company without filings queues its backfill. */
  queues: JobQueues;
  clock?: Clock;
  /** Insider follows of the user's plan (`insiderFollows`; the app's one Entitlements). */
  entitlements: Entitlements;
}

// ---- schemas (built from @tickerbell/jobs/insiders/shapes) -------------------------------------

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

/** A comma-separated list of allowed words (`codes=P,S`), each once; an unknown word is refused naming the list. */
function listSchema<T extends string>(allowed: readonly T[], what: string) {
  return z
    .string()
    .max(200)
    .transform((value, ctx): T[] => {
      const items = [...new Set(value.split(',').map((item) => item.trim()).filter(Boolean))];
      const unknown = items.filter((item) => !(allowed as readonly string[]).includes(item));
      if (!items.length || unknown.length) {
        ctx.addIssue({ code: 'custom', message: `${what}: a comma-separated list of ${allowed.join(', ')}${unknown.length ? ` (unknown: ${unknown.slice(0, 5).join(', ').slice(0, 60)})` : ''}` });
        return z.NEVER;
      }
      return items as T[];
    });
}

/** A ticker as EDGAR lists it (BRK-B, BF.B), or the 10-digit CIK of an issuer without one. */
export const insiderTickerSchema = z.string().regex(/^(?:[A-Za-z0-9][A-Za-z0-9.-]{0,19}|\d{10})$/, 'a ticker (letters, digits, . and -) or a 10-digit CIK');
/** A CIK: 1 to 10 digits (zero-padded to 10 in the tables). */
export const insiderCikSchema = z.string().regex(/^\d{1,10}$/, 'a CIK: 1 to 10 digits');
/** An EDGAR accession number, 0001127602-25-001055. */
export const accessionSchema = z.string().regex(/^(?:\d{10}-\d{2}-\d{6}|local-[0-9a-f]{19})$/, 'an accession number like 0001127602-25-001055');

export const insiderScreenerQuerySchema = z
  .object({
    filedFrom: dateSchema.optional(),
    filedTo: dateSchema.optional(),
    tradedFrom: dateSchema.optional(),
    tradedTo: dateSchema.optional(),
    codes: listSchema<TransactionCode>(TRANSACTION_CODE_LIST, 'SEC transaction codes').optional(),
    minValue: z.coerce.number().min(0).max(1e13).optional(),
    roles: listSchema<InsiderRole>(INSIDER_ROLES, 'roles').optional(),
    ticker: insiderTickerSchema.optional(),
    insiderCik: insiderCikSchema.optional(),
    clusterOnly: flagSchema.optional(),
    exclude10b5One: flagSchema.optional(),
    table: z.enum(TRANSACTION_TABLES).optional(),
    sort: z.enum(INSIDER_SORT_KEYS).optional(),
    order: z.enum(['asc', 'desc']).optional(),
    limit: z.coerce.number().int().min(1).max(INSIDER_SCREENER_MAX_LIMIT).optional(),
    cursor: z.string().regex(/^[A-Za-z0-9_-]{1,400}$/, 'the nextCursor of a previous page').optional(),
    format: z.enum(['json', 'csv']).optional(),
  })
  .strict()
  .superRefine((query, ctx) => {
    if (query.filedFrom && query.filedTo && query.filedFrom > query.filedTo) ctx.addIssue({ code: 'custom', path: ['filedTo'], message: 'on or after filedFrom' });
    if (query.tradedFrom && query.tradedTo && query.tradedFrom > query.tradedTo) ctx.addIssue({ code: 'custom', path: ['tradedTo'], message: 'on or after tradedFrom' });
  });

export const insiderFilingsQuerySchema = z
  .object({
    limit: z.coerce.number().int().min(1).max(100).optional(),
    cursor: z.string().regex(/^[A-Za-z0-9_-]{1,400}$/, 'the nextCursor of a previous page').optional(),
  })
  .strict();

export const insiderCompanySearchQuerySchema = z.object({ q: z.string().trim().min(1).max(100) }).strict();

export const insiderClusterBuysQuerySchema = z.object({ limit: z.coerce.number().int().min(1).max(100).optional() }).strict();

export const insiderTickerParamsSchema = z.object({ ticker: insiderTickerSchema });
export const insiderCikParamsSchema = z.object({ cik: insiderCikSchema });
export const insiderAccessionParamsSchema = z.object({ accession: accessionSchema });

/** PUT /api/insiders/follows/:ticker: what notifies the user (every field optional: the defaults of a new follow). */
export const insiderFollowBodySchema = z
  .object({
    notifyClusterBuy: z.boolean().default(true),
    officerBuyMinValue: z.number().min(0).max(1e12).nullable().default(OFFICER_BUY_DEFAULT_MIN_VALUE),
    notifyUnusualActivity: z.boolean().default(true),
  })
  .strict();

// ---- routes -------------------------------------------------------------------------------------

/** The domain's refusals of a query as the 400 naming the field. */
async function http<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof InsiderQueryError) throw new HttpError(400, 'validation_failed', `Invalid input: ${error.field}`, [{ field: error.field, message: error.message }]);
    throw error;
  }
}

/** A ticker or CIK from the path: anything the schema refuses is the same 404 as an unknown company. */
function tickerParam(req: Request): string {
  const parsed = insiderTickerSchema.safeParse(req.params.ticker);
  if (!parsed.success) throw notFound(`No company with ticker or CIK ${String(req.params.ticker).slice(0, 40)}`);
  return parsed.data;
}

/** `insider-trades-P-AAPL.csv`: the file name says what was asked, with nothing a header or a file system would choke on. */
export function screenerCsvFileName(query: InsiderScreenerQuery): string {
  const parts = ['insider-trades', query.codes?.join(''), query.ticker, query.insiderCik && `cik${query.insiderCik}`, query.clusterOnly ? 'cluster' : undefined];
  return `${parts.filter(Boolean).join('-').replace(/[^A-Za-z0-9.-]/g, '_')}.csv`;
}

/** The insiders routes: public reads (screener, filings, companies, insiders, cluster buys) and the signed-in user's follows. */
export function insidersRoutes(deps: InsidersRouteDeps): Router {
  const router = Router();
  const db = deps.dataSource;
  const clock = deps.clock ?? systemClock;

  router.get('/insiders/screener', async (req, res) => {
    const query = insiderScreenerQuerySchema.parse(req.query);
    if (query.format === 'csv') {
      const { csv, rows, truncated } = await http(() => insiderScreenerCsv(db, query));
      res
        .attachment(screenerCsvFileName(query))
        .type('text/csv; charset=utf-8')
        .set('Cache-Control', 'no-store')
        .set('X-Row-Count', String(rows))
        // The export stops at INSIDER_CSV_MAX_ROWS lines: narrow the filters for the rest.
        .set('X-Truncated', truncated ? `true; at most ${INSIDER_CSV_MAX_ROWS} rows` : 'false')
        .send(csv);
      return;
    }
    res.json(await http(() => insiderScreener(db, query)));
  });

  router.get('/insiders/filings', async (req, res) => {
    const query = insiderFilingsQuerySchema.parse(req.query);
    res.json(await http(() => latestInsiderFilings(db, query)));
  });

  router.get('/insiders/filings/:accession', async (req, res) => {
    const parsed = accessionSchema.safeParse(req.params.accession);
    const filing = parsed.success ? await storedFiling(db, parsed.data) : null;
    if (!filing) throw notFound(`No filing ${String(req.params.accession).slice(0, 40)}`);
    res.json(filing);
  });

  router.get('/insiders/companies', async (req, res) => {
    const { q } = insiderCompanySearchQuerySchema.parse(req.query);
    res.json(await searchInsiderCompanies(db, q));
  });

  router.get('/insiders/companies/:ticker', async (req, res) => {
    const key = tickerParam(req);
    const page = await insiderCompanyPage(db, key, req.user?.id ?? null);
    if (!page) throw notFound(`No company with ticker or CIK ${key}`);
    // The follow part is the session's.
    res.set('Cache-Control', 'private, no-store').json(page);
  });

  router.get('/insiders/insiders/:cik', async (req, res) => {
    const parsed = insiderCikSchema.safeParse(req.params.cik);
    const page = parsed.success ? await insiderPage(db, parsed.data) : null;
    if (!page) throw notFound(`No insider with CIK ${String(req.params.cik).slice(0, 40)}`);
    res.json(page);
  });

  router.get('/insiders/cluster-buys', async (req, res) => {
    const { limit } = insiderClusterBuysQuerySchema.parse(req.query);
    res.json(await latestInsiderClusterBuys(db, limit));
  });

  router.get('/insiders/follows', requireUser, async (req, res) => {
    res.set('Cache-Control', 'no-store').json(await listInsiderFollows(db, sessionUser(req).id));
  });

  router.put('/insiders/follows/:ticker', requireUser, async (req, res) => {
    const key = tickerParam(req);
    const settings: InsiderFollowSettings = insiderFollowBodySchema.parse(req.body ?? {});
    const change = await upsertInsiderFollow(db, sessionUser(req).id, key, settings, { entitlements: deps.entitlements, now: clock.now() });
    if (!change) throw notFound(`No company with ticker or CIK ${key}`);
    if (!change.hasFilings) {
      // Nothing stored for it yet: fetch its recent Form 4s (once per company and day, whoever follows).
      const cik = change.follow.company.cik;
      await deps.queues.add('insiders.backfill-company', { cik }, { jobId: insidersJobIds.backfill(cik, clock.now().toISOString().slice(0, 10)) });
    }
    res.json(change.follow);
  });

  router.delete('/insiders/follows/:ticker', requireUser, async (req, res) => {
    const key = tickerParam(req);
    const removed = await deleteInsiderFollow(db, sessionUser(req).id, key);
    if (removed === null) throw notFound(`No company with ticker or CIK ${key}`);
    res.status(204).end();
  });

  return router;
}

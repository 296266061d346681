import { z } from 'zod';
import { defineJob, jobId } from '../runtime/job-definition';

/** What a follower can be alerted of (A's insiders-alerts.ts). */
export type InsiderAlertKind = 'cluster_buy' | 'officer_buy' | 'unusual_activity';
export const INSIDER_ALERT_KINDS = ['cluster_buy', 'officer_buy', 'unusual_activity'] as const satisfies readonly InsiderAlertKind[];

/** How often the poll job is scheduled (a tick); INSIDERS_POLL_SECONDS decides which ticks read the feed. */
export const INSIDERS_POLL_TICK_MS = 15_000;

/** The insiders job ids, each following from its natural key (same work, same id: BullMQ adds it once). */
export const insidersJobIds = {
  /** One fetch per filing, however many polls, indexes and backfills find it. */
  fetchFiling: (accession: string) => jobId('insiders.fetch-filing', accession),
  /** One read per index day while BullMQ holds it. */
  readIndex: (day: string) => jobId('insiders.read-daily-index', day),
  /** The analytics after one stored filing. */
  recompute: (companyId: number, accession: string) => jobId('insiders.recompute-analytics', String(companyId), accession),
  /** The day's recompute of a company (the window rolls on without a filing): once per company and day. */
  recomputeDay: (companyId: number, day: string) => jobId('insiders.recompute-analytics', String(companyId), 'day', day),
  recomputeActive: (day: string) => jobId('insiders.recompute-active', day),
  /** One fan-out per company, kind and event key. */
  notify: (companyId: number, kind: InsiderAlertKind, key: string) => jobId('insiders.notify', String(companyId), kind, key),
  /** The ticker sync of an empty companies table (first start), once per hour slot. */
  syncTickers: (slot: string) => jobId('insiders.sync-tickers', slot),
  /** A company backfill, once per company and day. */
  backfill: (cik: string, day: string) => jobId('insiders.backfill-company', cik, day),
};

const accession = z.string().regex(/^(\d{10}-\d{2}-\d{6}|local-[0-9a-f]{19})$/, 'an accession number like 0001127602-25-001055');
const cik = z.string().regex(/^\d{1,10}$/, 'a CIK (digits)');
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'a date YYYY-MM-DD');

export const insidersJobs = {
  'insiders.poll-current': defineJob({
    queue: 'insiders',
    description:
      'Reads the SEC current-filings feed of Form 4 (every INSIDERS_POLL_SECONDS), records each new filing as pending ' +
      '(deduplicated by accession number) and queues its fetch',
    payload: z.object({}).strict(),
    // The next tick polls again: no retries.
    options: { attempts: 1 },
  }),
  'insiders.fetch-filing': defineJob({
    queue: 'insiders',
    description:
      'Fetches one Form 4 or 4/A, parses it and stores its owners and every transaction line in one transaction, then ' +
      'queues the analytics. A filing that does not parse is recorded failed with the reason and not retried',
    payload: z.object({ accession, cik, via: z.enum(['feed', 'index', 'submissions']) }).strict(),
    // Discovery queues it with INSIDERS_MAX_FILING_ATTEMPTS and INSIDERS_RETRY_DELAY_MS.
    options: { attempts: 5, backoff: { type: 'exponential', delay: 60_000 } },
  }),
  'insiders.read-daily-index': defineJob({
    queue: 'insiders',
    description: "Reads EDGAR's daily form index of one business day and queues the fetch of every Form 4 and 4/A not seen yet (the backstop of the feed)",
    payload: z.object({ day }).strict(),
    options: { attempts: 3, backoff: { type: 'exponential', delay: 60_000 } },
  }),
  'insiders.catch-up': defineJob({
    queue: 'insiders',
    description: 'Queues a read of the daily index of every business day not read yet (at most INSIDERS_CATCH_UP_DAYS): after an outage, nothing is missed',
    payload: z.object({}).strict(),
    options: { attempts: 3, backoff: { type: 'exponential', delay: 60_000 } },
  }),
  'insiders.sync-tickers': defineJob({
    queue: 'insiders',
    description: "Upserts every company of the SEC's company_tickers.json (CIK, ticker, name); a ticker that moved to another CIK is cleared on the old one",
    payload: z.object({}).strict(),
    options: { attempts: 3, backoff: { type: 'exponential', delay: 60_000 } },
  }),
  'insiders.backfill-company': defineJob({
    queue: 'insiders',
    description: "Reads a company's submissions JSON and queues the fetch of its recent Form 4 and 4/A filings not stored yet",
    payload: z.object({ cik }).strict(),
    options: { attempts: 3, backoff: { type: 'exponential', delay: 60_000 } },
  }),
  'insiders.recompute-analytics': defineJob({
    queue: 'insiders',
    description: "Recomputes a company's insider analytics (30-day window) and queues the alerts it raises",
    payload: z.object({ companyId: z.number().int().positive(), accession: accession.optional() }).strict(),
    options: { attempts: 3, backoff: { type: 'exponential', delay: 5000 } },
  }),
  'insiders.recompute-active': defineJob({
    queue: 'insiders',
    description:
      "Daily: queues the analytics of every company with a line in the last 30 days or a non-empty window yesterday, so each " +
      "day's row exists (the history has no gaps) and trades leaving the window are counted out",
    payload: z.object({}).strict(),
    options: { attempts: 3, backoff: { type: 'exponential', delay: 60_000 } },
  }),
  'insiders.notify': defineJob({
    queue: 'insiders',
    description: "Fans one insider alert (cluster buy, officer buy, unusual activity) out to the company's followers as notifications.deliver batches",
    payload: z
      .object({ companyId: z.number().int().positive(), kind: z.enum(INSIDER_ALERT_KINDS), key: z.string().trim().min(1).max(100) })
      .strict(),
    options: { attempts: 3, backoff: { type: 'exponential', delay: 5000 } },
  }),
};

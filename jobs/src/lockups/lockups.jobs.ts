import { z } from 'zod';
import { defineJob, jobId } from '../runtime/job-definition';

/** The lockups job ids, each following from its natural key (same work, same id: BullMQ adds it once). */
export const lockupsJobIds = {
  /**
   * The discovery of an offline worker's start: one per start (the instant), not per day, so a system
   * restarted on an emptied database the same day fills its calendar again (discovery is idempotent).
   */
  discoverAtStart: (startedAt: Date) => jobId('lockups.discover', 'start', String(startedAt.getTime())),
  /** The refresh and trigger check that follow a discovery which stored prospectuses (one each per such discovery: its instant). */
  afterDiscovery: (name: 'lockups.refresh' | 'lockups.check-triggers', discoveredAt: Date) => jobId(name, 'after-discovery', String(discoveredAt.getTime())),
};

/** How long after a discovery its refresh runs: the daily bars it queued for new tickers are written by then. */
export const REFRESH_AFTER_DISCOVERY_MS = 60_000;

export const lockupsJobs = {
  'lockups.discover': defineJob({
    queue: 'lockups',
    description:
      "Reads the 424B4 rows of the last LOCKUPS_DISCOVERY_DAYS daily form indexes (and EDGAR full-text search for \"lock-up\" when live; " +
      'the recorded and simulated prospectuses offline), parses each new prospectus, stores one event per lock-up tranche ' +
      '(needs_review with no date when the wording was not read), and makes sure its stock has a market and daily bars',
    payload: z.object({ reparse: z.boolean().optional() }).strict(),
    options: { attempts: 3, backoff: { type: 'exponential', delay: 60_000 } },
  }),
  'lockups.refresh': defineJob({
    queue: 'lockups',
    description:
      'Daily: shares outstanding (XBRL company facts), last close, market cap, run-up since the IPO and 30-day volume against the first 30 days ' +
      'for every upcoming event, then its risk score; past dates become expired',
    payload: z.object({}).strict(),
    options: { attempts: 3, backoff: { type: 'exponential', delay: 60_000 } },
  }),
  'lockups.check-triggers': defineJob({
    queue: 'lockups',
    description: "Daily: checks each upcoming event's early-release price triggers (close at or above a multiple of the IPO price for N of M trading days) against daily bars and records the day one was met",
    payload: z.object({}).strict(),
    options: { attempts: 3, backoff: { type: 'exponential', delay: 60_000 } },
  }),
  'lockups.notify': defineJob({
    queue: 'lockups',
    description: "Daily: tells each follower of a ticker (or of events above a risk score) 14, 7 or 1 days before an expiry (their choice) and on the day; never twice",
    payload: z.object({}).strict(),
    options: { attempts: 3, backoff: { type: 'exponential', delay: 30_000 } },
  }),
};

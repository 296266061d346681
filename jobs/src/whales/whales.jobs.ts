import { z } from 'zod';
import { defineJob, jobId } from '../runtime/job-definition';

/** How often the scan is scheduled: one Ethereum slot. */
export const WHALES_SCAN_EVERY_MS = 12_000;

/** The whales job ids, each following from its natural key (same work, same id: BullMQ adds it once). */
export const whalesJobIds = {
  /** A scan asked for in one 12 s slot (the CLI, a test): once per chain and slot. */
  scan: (chain: string, at: Date) => jobId('whales.scan', chain, Math.floor(at.getTime() / WHALES_SCAN_EVERY_MS)),
  /** The next batch of a catch-up (or the rescan after a reorg), from block `from`: queued once. */
  continueFrom: (chain: string, from: number) => jobId('whales.scan', chain, 'from', from),
  /** The alerts of one recorded block (by hash: a block recorded again after a reorg is another block). */
  alerts: (chain: string, hash: string) => jobId('whales.alerts', chain, hash.toLowerCase()),
  /** The digests closing in one 15-minute slot. */
  digests: (at: Date) => jobId('whales.digests', Math.floor(at.getTime() / WHALES_DIGEST_EVERY_MS)),
};

/** How often digests are looked for: every quarter hour, so the local midnight of zones with :30 and :45 offsets is met too. */
export const WHALES_DIGEST_EVERY_MS = 15 * 60_000;

export const whalesJobs = {
  'whales.scan': defineJob({
    queue: 'whales',
    description:
      'Scans the next Ethereum blocks (checkpoint + 1 up to head - WHALES_CONFIRMATIONS, at most WHALES_SCAN_BATCH): native ETH and ERC-20 ' +
      'transfers recorded with each block and the checkpoint in one transaction; a parent-hash mismatch rolls the orphaned blocks back. ' +
      'One scanner per chain at a time (a Redis lock); while behind, it queues its next batch at once',
    payload: z.object({}).strict(),
    // The failed step is retried soon (the checkpoint did not move past what was recorded); the next tick would retry it anyway.
    options: {
      attempts: 3,
      backoff: { type: 'exponential', delay: 2000 },
      removeOnComplete: { age: 600, count: 200 },
      removeOnFail: { age: 24 * 3600, count: 500 },
    },
  }),
  'whales.alerts': defineJob({
    queue: 'whales',
    description:
      "Alerts of one recorded block: its transfers that meet a user's watch (USD threshold, else the global threshold) become whale_alerts " +
      'once per user, address and transfer; immediate ones are notified at once, hourly and daily ones wait for their digest. ' +
      'A block a reorg removed alerts nothing',
    payload: z
      .object({
        chain: z.string().min(1).max(20),
        hash: z.string().regex(/^0x[0-9a-fA-F]{64}$/, 'a 32-byte block hash'),
        /**
         * The block's addresses the scanner's filter holds (labelled or watched), so the job looks up
         * only those; absent, it reads the block's addresses from its rows.
         */
        addresses: z.array(z.string().regex(/^0x[0-9a-f]{40}$/, 'a lowercase address')).max(100_000).optional(),
      })
      .strict(),
    options: {
      attempts: 5,
      backoff: { type: 'exponential', delay: 1000 },
      removeOnComplete: { age: 3600, count: 1000 },
      removeOnFail: { age: 7 * 24 * 3600, count: 1000 },
    },
  }),
  'whales.digests': defineJob({
    queue: 'whales',
    description:
      'Sends the whale digests whose period is over: hourly at :00 UTC, daily at the local midnight of the watch\'s time zone; ' +
      'one notification per user and period listing its pending alerts (idempotent by digest key)',
    payload: z.object({}).strict(),
    options: {
      attempts: 3,
      backoff: { type: 'exponential', delay: 5000 },
      removeOnComplete: { age: 3600, count: 200 },
      removeOnFail: { age: 7 * 24 * 3600, count: 200 },
    },
  }),
};

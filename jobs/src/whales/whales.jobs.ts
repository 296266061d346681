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
};

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
};

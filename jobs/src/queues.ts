import type { WorkerOptions } from 'bullmq';

export interface QueueDefinition {
  description: string;
  /** Jobs one worker process runs at once on this queue. */
  concurrency: number;
  /** Rate limit shared by every worker of the queue (e.g. an external API's quota). */
  limiter?: WorkerOptions['limiter'];
}

/**
 * Every queue of the system. A queue holds the jobs of one domain; its name is the domain's
 * name, as in every other package (entities/<domain>, api routes, web screens).
 */
export const QUEUES = {
  housekeeping: {
    description: 'Purges expired verification and reset tokens, stale invitations and sessions',
    concurrency: 1,
  },
  mail: { description: 'Outgoing email (verification, password reset, invitations)', concurrency: 5 },
  cot: { description: 'Futures positioning (COT): CFTC report polling, imports and analytics', concurrency: 2 },
  'market-hours': { description: 'Market clock (every minute) and fan-out of market open/close events', concurrency: 2 },
  notifications: { description: 'Notification delivery: rows, live stream, web push, email copies', concurrency: 8 },
  prices: { description: 'Price polling (crypto every 10 s, stocks every 60 s while open), bars, price updates', concurrency: 2 },
  alerts: { description: 'Alert evaluation on price updates and closed bars, trigger writes, webhooks, expiry', concurrency: 4 },
  news: { description: 'News polling: RSS/Atom feeds and the SEC current filings, stored, deduplicated and matched to markets', concurrency: 2 },
  insiders: {
    description: 'Insider trades (SEC Form 4): feed polling, daily-index catch-up, filing fetches and imports, analytics and alerts',
    // Fetches wait on the SEC budget shared in Redis, not on this process.
    concurrency: 4,
  },
  whales: {
    description: 'Whale tracking: Ethereum block scanning (native and ERC-20 transfers) with confirmations, reorg rollback and a checkpoint',
    // One scanner per chain holds a Redis lock; a second slot lets a follow-up batch wait on it rather than on the queue.
    concurrency: 2,
  },
  predictions: {
    description: 'Prediction markets: Polymarket sync and price snapshots, forecast resolution and scoring, mispricing detection',
    concurrency: 2,
  },
  yields: {
    description: 'Liquidity-pool yields: hourly DefiLlama and Uniswap v3 subgraph snapshots, yield alert evaluation, retention',
    // An ingest (a minute at most) and an evaluation or prune beside it.
    concurrency: 2,
  },
  lockups: {
    description: 'IPO lock-up expirations: prospectus discovery and parsing, daily prices, scores and early-release triggers, notices to followers',
    // Daily jobs; prospectus fetches wait on the SEC budget shared in Redis.
    concurrency: 2,
  },
  billing: {
    description: 'Billing: Stripe webhook events processed (subscription re-fetched), seat syncs, daily resync, catalog sync',
    // Events of one subscription are serialised by a lock in the database, not by the queue.
    concurrency: 4,
  },
} as const satisfies Record<string, QueueDefinition>;

export type QueueName = keyof typeof QUEUES;

export const QUEUE_NAMES = Object.keys(QUEUES) as QueueName[];

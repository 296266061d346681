import { z } from 'zod';
import { defineJob, jobId } from '../runtime/job-definition';

/** The UTC minute of `at`, as the natural key of a run asked for by hand. */
const minuteKey = (at: Date) => new Date(Math.floor(at.getTime() / 60_000) * 60_000).toISOString();

/** The predictions job ids, each following from its natural key (same work, same id: BullMQ adds it once). */
export const predictionsJobIds = {
  // Source: sync and snapshots
  /** A sync asked for in one minute (the CLI, a test): added once per minute. */
  sync: (at: Date) => jobId('predictions.sync', minuteKey(at)),
  /** A snapshot run asked for in one minute. */
  snapshot: (at: Date) => jobId('predictions.snapshot', minuteKey(at)),
  // Forecasts and performance
  /** The resolution of one market's forecasts (the sync's request and its retries add it once). */
  resolve: (marketId: number) => jobId('predictions.resolve', marketId),
  /** A user's scorecard after one market's resolution (a retried resolution adds it once per user). */
  performance: (userId: number, marketId: number) => jobId('predictions.performance', userId, marketId),
  // Mispricing
  /** One mispricing run per 5-minute slot of `at` (a sync's request, its retries and a second sync in the slot add it once). */
  mispricing: (at: Date) => jobId('predictions.mispricing', new Date(Math.floor(at.getTime() / 300_000) * 300_000).toISOString()),
};

export const predictionsJobs = {
  // Source: sync and snapshots
  'predictions.sync': defineJob({
    queue: 'predictions',
    description:
      "Syncs Polymarket's active markets: every page of Gamma /events (tags, negative risk) and /markets, then each market held as " +
      'active that the listing no longer returns, by id (closed, resolution). Everything is read first: a failed page fails the job ' +
      'with its reason and nothing is written. Rows are written only when their content hash changed; then predictions.resolve is ' +
      'queued for each newly resolved market and one predictions.mispricing run. One sync at a time (a Redis lock)',
    // tick: the schedule's (runs once per PREDICTIONS_SYNC_MINUTES slot); without it (CLI, tests) it always runs.
    payload: z.object({ tick: z.literal(true).optional() }).strict(),
    // A failed page is retried soon; a malformed answer is not (UnrecoverableError): the next slot tries again.
    options: {
      attempts: 3,
      backoff: { type: 'exponential', delay: 10_000 },
      removeOnComplete: { age: 3600, count: 200 },
      removeOnFail: { age: 7 * 24 * 3600, count: 500 },
    },
  }),
  'predictions.snapshot': defineJob({
    queue: 'predictions',
    description:
      'Records one price snapshot per tracked market (active, forecast or followed by market or category): the mid of the CLOB book, ' +
      "else the CLOB midpoint, else the synced Gamma price; at the start of the PREDICTIONS_SNAPSHOT_MINUTES slot, so a retry or a " +
      'second run in the slot writes nothing. Snapshots older than 90 days are thinned to one a day',
    payload: z.object({ tick: z.literal(true).optional() }).strict(),
    options: {
      attempts: 3,
      backoff: { type: 'exponential', delay: 10_000 },
      removeOnComplete: { age: 3600, count: 200 },
      removeOnFail: { age: 7 * 24 * 3600, count: 500 },
    },
  }),
  // Forecasts and performance
  'predictions.resolve': defineJob({
    queue: 'predictions',
    description:
      "Copies a resolved market's resolution and resolution time onto every forecast row of the market, scores each row " +
      '(points against the market price at its moment; a void market gets none), then queues predictions.performance for each ' +
      'user who forecast it. Idempotent: a retry writes the same values',
    payload: z.object({ marketId: z.number().int().positive() }).strict(),
    options: {
      attempts: 5,
      backoff: { type: 'exponential', delay: 2000 },
      removeOnComplete: { age: 3600, count: 1000 },
      removeOnFail: { age: 7 * 24 * 3600, count: 1000 },
    },
  }),
  'predictions.performance': defineJob({
    queue: 'predictions',
    description:
      "Recomputes a user's forecasting scorecard (prediction_performance) from their scored questions (prediction_question_scores, " +
      'written at resolution; questions resolved before that table are scored first): accuracy, Brier and ' +
      'log scores, the Brier decomposition, calibration bins with Wilson intervals, skill against the market, categories, monthly trend',
    payload: z.object({ userId: z.number().int().positive() }).strict(),
    // Kept an hour: a retried resolution re-adds nothing; a later correction of the resolution recomputes again.
    options: {
      attempts: 5,
      backoff: { type: 'exponential', delay: 2000 },
      removeOnComplete: { age: 3600, count: 5000 },
      removeOnFail: { age: 7 * 24 * 3600, count: 1000 },
    },
  }),
  // Mispricing
  'predictions.mispricing': defineJob({
    queue: 'predictions',
    description:
      "Recomputes the mispricing alerts of active markets (users' track-record-weighted consensus, negative-risk events' " +
      'consistency) against the executable price: opens new ones, refreshes or closes open ones, and notifies the followers ' +
      'of the market or its category of each new one',
    // tick: the schedule's (runs once per PREDICTIONS_MISPRICING_MINUTES slot); without it (a sync's request), it always runs.
    payload: z.object({ tick: z.literal(true).optional() }).strict(),
    options: { attempts: 3, backoff: { type: 'exponential', delay: 5000 } },
  }),
};


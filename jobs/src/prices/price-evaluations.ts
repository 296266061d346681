import { createHash } from 'node:crypto';
import { z } from 'zod';
import type { StoredPriceUpdate } from './latest-prices.store';
import { chunk } from './price-source';
import { MAX_TICKS_PER_EVALUATION, priceTickSchema, type PriceTickPayload } from './price-ticks';
import { pricesJobIds, type PricePollKind } from './prices.jobs';
import type { PricesDeps } from './price-poll';

/**
 * The evaluation of the ticks a poll stored (`alerts.evaluate`), made durable. Storing a price
 * moves the idempotency gate (a quote not newer than the stored one goes no further), so a poll
 * that stored its quotes and then failed before queueing their evaluation (a Redis blip, a killed
 * worker) would lose those ticks for good: its retry finds nothing newer to store. So the poll
 * records the evaluation jobs it is about to queue in a hash, written in the same MULTI as the
 * prices, and deletes them once queued. Every poll of the kind (under the poll lock) first queues
 * what an earlier one left there, under the same job ids: BullMQ adds a job id once, so a job that
 * was in fact queued (the failure came after) is not queued twice.
 */

/** `<prefix>:prices:unqueued-evaluations:<kind>`: hash job id -> JSON {storedAt, ticks}. */
export function unqueuedEvaluationsKey(prefix: string, kind: PricePollKind): string {
  return `${prefix}:prices:unqueued-evaluations:${kind}`;
}

/**
 * Ticks older than this (since their poll stored them) are not evaluated late but dropped with a
 * warning: a late alert for an old tick is worse than none, and it matches how long completed
 * `alerts.evaluate` jobs are kept (600 s), so a job queued before the failure still blocks its
 * re-queue by id.
 */
export const MAX_CATCH_UP_MS = 10 * 60_000;

export interface EvaluationJob {
  jobId: string;
  ticks: PriceTickPayload[];
}

const entrySchema = z.object({ storedAt: z.iso.datetime(), ticks: z.array(priceTickSchema).min(1).max(MAX_TICKS_PER_EVALUATION) });

/** A short digest of a job's payload: a re-run of the same poll adds the same job ids (BullMQ keeps one). */
export function payloadDigest(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 16);
}

/** The evaluation jobs of a poll's stored updates: ticks with the price each replaced, in chunks, deterministic ids. */
export function evaluationJobs(kind: PricePollKind, updates: readonly StoredPriceUpdate[]): EvaluationJob[] {
  const ticks: PriceTickPayload[] = updates.map((u) => ({ symbol: u.latest.symbol, previous: u.previous, current: u.latest.price, at: u.latest.at }));
  return chunk(ticks, MAX_TICKS_PER_EVALUATION).map((part) => ({
    jobId: pricesJobIds.evaluate(kind, Date.parse(part[0].at), payloadDigest(part)),
    ticks: part,
  }));
}

/** The hash fields recording `jobs` as not yet queued (written with the prices, see writeQuoteUpdates). */
export function unqueuedEvaluationFields(jobs: readonly EvaluationJob[], storedAt: Date): Record<string, string> {
  return Object.fromEntries(jobs.map((job) => [job.jobId, JSON.stringify({ storedAt: storedAt.toISOString(), ticks: job.ticks })]));
}

/** Queues the jobs, then clears their record: a failure in between leaves the record for the next poll. */
export async function queueEvaluations(deps: Pick<PricesDeps, 'queues' | 'redis' | 'prefix'>, kind: PricePollKind, jobs: readonly EvaluationJob[]): Promise<void> {
  if (!jobs.length) return;
  await deps.queues.addBulk(jobs.map((job) => ({ name: 'alerts.evaluate' as const, data: { ticks: job.ticks }, options: { jobId: job.jobId } })));
  await deps.redis.hdel(unqueuedEvaluationsKey(deps.prefix, kind), ...jobs.map((job) => job.jobId));
}

export interface CaughtUpEvaluations {
  /** Evaluation jobs of earlier polls queued now. */
  jobs: number;
  ticks: number;
  /** Ticks older than MAX_CATCH_UP_MS (or unreadable records), dropped with a warning. */
  dropped: number;
}

/**
 * Queues the evaluations earlier polls of the kind stored but did not queue, oldest first, before
 * this poll stores anything (so each tick's `previous` is the price it replaced, and a symbol's
 * ticks are queued in order). Only Redis is needed: this runs even while PostgreSQL is down.
 */
export async function catchUpEvaluations(deps: Pick<PricesDeps, 'queues' | 'redis' | 'prefix' | 'clock' | 'logger'>, kind: PricePollKind): Promise<CaughtUpEvaluations> {
  const key = unqueuedEvaluationsKey(deps.prefix, kind);
  const stored = await deps.redis.hgetall(key);
  const fields = Object.keys(stored);
  if (!fields.length) return { jobs: 0, ticks: 0, dropped: 0 };

  const now = deps.clock.now().getTime();
  const due: (EvaluationJob & { storedAt: number })[] = [];
  const dropped: string[] = [];
  let droppedTicks = 0;
  for (const jobId of fields) {
    let entry: z.infer<typeof entrySchema> | null = null;
    try {
      const parsed = entrySchema.safeParse(JSON.parse(stored[jobId]));
      entry = parsed.success ? parsed.data : null;
    } catch {
      entry = null;
    }
    if (entry && now - Date.parse(entry.storedAt) <= MAX_CATCH_UP_MS) {
      due.push({ jobId, ticks: entry.ticks, storedAt: Date.parse(entry.storedAt) });
    } else {
      dropped.push(jobId);
      droppedTicks += entry?.ticks.length ?? 0;
    }
  }
  if (dropped.length) {
    deps.logger?.warn(
      { kind, jobIds: dropped, ticks: droppedTicks, maxAgeMs: MAX_CATCH_UP_MS },
      'prices: evaluations stored but never queued are too old or unreadable: dropped',
    );
    await deps.redis.hdel(key, ...dropped);
  }
  due.sort((a, b) => a.storedAt - b.storedAt || Date.parse(a.ticks[0].at) - Date.parse(b.ticks[0].at));
  await queueEvaluations(deps, kind, due);
  const ticks = due.reduce((n, job) => n + job.ticks.length, 0);
  if (due.length) deps.logger?.warn({ kind, jobIds: due.map((j) => j.jobId), ticks }, 'prices: queued the evaluations an earlier poll stored but did not queue');
  return { jobs: due.length, ticks, dropped: droppedTicks };
}

import { UnrecoverableError } from 'bullmq';
import type { JobContext } from '../runtime/job-handler';
import { defineHandler } from '../runtime/job-handler';
import type { NewsSource } from './feeds.client';
import { announceNewsLinks, pollNewsSource, type NewsLinked } from './news-poll';
import { newsJobIds } from './news.jobs';

export interface NewsHandlerDeps {
  /** The configured sources (feeds, then the SEC), built once per process (news.domain.ts). */
  sources: (context: JobContext) => NewsSource[];
  /** Items kept per source. */
  keep: number;
  /** Told of the links each poll wrote, after its commit (news alerts; wired in domains.ts so news never imports them). */
  consumers: readonly NewsConsumer[];
}

/** A feature that acts on new news items linked to markets. */
export interface NewsConsumer {
  /**
   * Called after a poll's transaction with the links not told yet (grouped by poll instant); it
   * should only queue work, idempotently. A throw fails the poll job and leaves the links untold:
   * the retry (or the next poll) tells them again.
   */
  newsLinked(linked: NewsLinked, context: JobContext): Promise<void>;
}

export function createNewsHandlers(deps: NewsHandlerDeps) {
  return [
    defineHandler('news.poll-all', async (_payload, context) => {
      const sources = deps.sources(context);
      const now = context.clock.now();
      await context.queues.addBulk(
        sources.map((source) => ({ name: 'news.poll' as const, data: { source: source.name }, options: { jobId: newsJobIds.poll(source.name, now) } })),
      );
      return { queued: sources.map((source) => source.name) };
    }),
    defineHandler('news.poll', async ({ source: name }, context) => {
      const source = deps.sources(context).find((s) => s.name === name);
      // A source removed from the configuration since the job was queued: nothing to retry.
      if (!source) throw new UnrecoverableError(`No news source ${name} in this configuration`);
      const poll = { dataSource: context.dataSource, clock: context.clock };
      const { linked, ...outcome } = await pollNewsSource(poll, source, { keep: deps.keep });
      // This poll's links and any an earlier failed poll left untold (the outbox).
      const announced = await announceNewsLinks(poll, source.name, async (linked) => {
        for (const consumer of deps.consumers) await consumer.newsLinked(linked, context);
      });
      const result = { ...outcome, linked: linked.links.length, announced };
      context.logger.info(result, 'news: polled');
      return result;
    }),
  ];
}

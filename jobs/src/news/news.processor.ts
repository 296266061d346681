import { UnrecoverableError } from 'bullmq';
import type { JobContext } from '../runtime/job-handler';
import { defineHandler } from '../runtime/job-handler';
import type { NewsSource } from './feeds.client';
import { pollNewsSource, type NewsLinked } from './news-poll';
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
   * Called after a poll's transaction with the links it wrote; it should only queue work. A throw
   * fails the poll job, but its retry adds no items, so a consumer's own job must not be lost to it.
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
      const { linked, ...outcome } = await pollNewsSource({ dataSource: context.dataSource, clock: context.clock }, source, { keep: deps.keep });
      context.logger.info({ ...outcome }, 'news: polled');
      if (linked.links.length) for (const consumer of deps.consumers) await consumer.newsLinked(linked, context);
      return outcome;
    }),
  ];
}

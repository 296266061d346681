import { UnrecoverableError } from 'bullmq';
import type { JobContext } from '../runtime/job-handler';
import { defineHandler } from '../runtime/job-handler';
import type { NewsSource } from './feeds.client';
import { pollNewsSource } from './news-poll';
import { newsJobIds } from './news.jobs';

export interface NewsHandlerDeps {
  /** The configured sources (feeds, then the SEC), built once per process (news.domain.ts). */
  sources: (context: JobContext) => NewsSource[];
  /** Items kept per source. */
  keep: number;
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
      const outcome = await pollNewsSource({ dataSource: context.dataSource, clock: context.clock }, source, { keep: deps.keep });
      context.logger.info({ ...outcome }, 'news: polled');
      return outcome;
    }),
  ];
}

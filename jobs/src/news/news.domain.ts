import { defineDomain } from '../runtime/domain';
import type { NewsSource } from './feeds.client';
import { edgarSourceFromConfig, feedSourcesFromConfig, newsEnvSchema } from './news.config';
import { createNewsHandlers, type NewsConsumer } from './news.processor';
import { NEWS_SCHEDULES } from './news.schedules';

/** What the consumers of news need of the poll, given by whoever assembles the domains (news never imports them). */
export interface NewsConsumers {
  /** Told of each poll's new item-market links (the news alerts). */
  linked: readonly NewsConsumer[];
}

/**
 * News in the workers. The sources are built once, on the first job: the SEC client's rate limit
 * lives in Redis (shared by the cluster), and the job context carries the connection.
 */
export function createNewsDomain(consumers: NewsConsumers) {
  return defineDomain({
    name: 'news',
    env: newsEnvSchema,
    schedules: NEWS_SCHEDULES,
    start(config) {
      let sources: NewsSource[] | undefined;
      const handlers = createNewsHandlers({
        keep: config.NEWS_HISTORY_PER_SOURCE,
        consumers: consumers.linked,
        sources: (context) => {
          if (!sources) {
            const edgar = edgarSourceFromConfig(config, { redis: context.redis, keyPrefix: context.queues.prefix });
            sources = [...feedSourcesFromConfig(config), ...(edgar ? [edgar] : [])];
          }
          return sources;
        },
      });
      return { handlers };
    },
  });
}

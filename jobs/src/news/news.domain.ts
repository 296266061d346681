import { defineDomain } from '../runtime/domain';
import type { NewsSource } from './feeds.client';
import { edgarSourceFromConfig, feedSourcesFromConfig, newsEnvSchema } from './news.config';
import { createNewsHandlers } from './news.processor';
import { NEWS_SCHEDULES } from './news.schedules';

/**
 * News in the workers. The sources are built once, on the first job: the SEC client's rate limit
 * lives in Redis (shared by the cluster), and the job context carries the connection.
 */
export const newsDomain = defineDomain({
  name: 'news',
  env: newsEnvSchema,
  schedules: NEWS_SCHEDULES,
  start(config) {
    let sources: NewsSource[] | undefined;
    const handlers = createNewsHandlers({
      keep: config.NEWS_HISTORY_PER_SOURCE,
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

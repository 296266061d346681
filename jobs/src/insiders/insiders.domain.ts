import { defineDomain } from '../runtime/domain';
import { insidersEnvSchema, insidersSourceFromConfig } from './insiders.config';
import { createInsidersHandlers } from './insiders.processor';
import { INSIDERS_SCHEDULES } from './insiders.schedules';
import type { InsidersSource } from './insiders-sec.client';

/**
 * Insiders in the workers. The source is built once, on the first job: the live SEC client's rate
 * limit lives in Redis (shared by the cluster with news), and the job context carries the
 * connection; the replay keeps its release position for the life of the process.
 */
export const insidersDomain = defineDomain({
  name: 'insiders',
  env: insidersEnvSchema,
  schedules: INSIDERS_SCHEDULES,
  start(config) {
    let source: InsidersSource | undefined;
    const handlers = createInsidersHandlers({
      config: () => config,
      source: (context) => {
        source ??= insidersSourceFromConfig(config, { redis: context.redis, keyPrefix: context.queues.prefix, clock: context.clock });
        return source;
      },
    });
    return { handlers };
  },
});

import { defineDomain } from '../runtime/domain';
import { lockupsEnvSchema, lockupsSourceFromConfig } from './lockups.config';
import { lockupsJobIds } from './lockups.jobs';
import { createLockupsHandlers } from './lockups.processor';
import { LOCKUPS_SCHEDULES } from './lockups.schedules';
import type { LockupsSource } from './lockups-sec.client';

/**
 * Lockups in the workers. The source is built once, on the first job: the live SEC client's rate
 * limit lives in Redis (shared by the cluster with insiders and news), and the job context carries
 * the connection. Offline, with LOCKUPS_DISCOVER_ON_START, a discovery is queued at each start (idempotent).
 */
export const lockupsDomain = defineDomain({
  name: 'lockups',
  env: lockupsEnvSchema,
  schedules: LOCKUPS_SCHEDULES,
  start(config, deps) {
    let source: LockupsSource | undefined;
    if (config.LOCKUPS_SOURCE === 'replay' && config.LOCKUPS_DISCOVER_ON_START && deps.queues) {
      deps.queues
        .add('lockups.discover', {}, { jobId: lockupsJobIds.discoverAtStart(deps.clock.now()) })
        .catch((error: Error) => deps.logger.warn({ err: error.message }, 'lockups: the discovery at start was not queued'));
    }
    const handlers = createLockupsHandlers({
      config: () => config,
      source: (context) => {
        source ??= lockupsSourceFromConfig(config, { redis: context.redis, keyPrefix: context.queues.prefix, clock: context.clock });
        return source;
      },
    });
    return { handlers };
  },
});

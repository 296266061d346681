import { defineHandler } from '../runtime/job-handler';
import { purgeExpired } from './purge-expired';

export const housekeepingHandlers = [
  defineHandler('housekeeping.purge-expired', async (_payload, { dataSource, clock, logger }) => {
    const result = await dataSource.transaction((manager) => purgeExpired(manager, clock.now()));
    logger.info({ ...result }, 'housekeeping: purged expired rows');
    return result;
  }),
];

import { defineHandler } from '../runtime/job-handler';
import { purgeExpired } from './housekeeping.store';

export const housekeepingHandlers = [
  defineHandler('housekeeping.purge-expired', async (_payload, { dataSource, clock, logger }) => {
    const result = await purgeExpired(dataSource, clock.now());
    logger.info({ ...result }, 'housekeeping: purged expired rows');
    return result;
  }),
];

import { defineDomain } from '../runtime/domain';
import { housekeepingHandlers } from './housekeeping.processor';
import { HOUSEKEEPING_SCHEDULES } from './housekeeping.schedules';

/** Housekeeping in the workers: the hourly purge of expired tokens, invitations and sessions. */
export const housekeepingDomain = defineDomain({
  name: 'housekeeping',
  schedules: HOUSEKEEPING_SCHEDULES,
  start() {
    return { handlers: housekeepingHandlers };
  },
});

import { z } from 'zod';
import { defineJob } from '../runtime/job-definition';

export const housekeepingJobs = {
  'housekeeping.purge-expired': defineJob({
    queue: 'housekeeping',
    description:
      'Clears expired email-verification and password-reset tokens, expires pending invitations past ' +
      'their time, and deletes expired sessions',
    payload: z.object({}).strict(),
    // Runs again within the hour anyway: a couple of retries is plenty.
    options: { attempts: 3 },
  }),
};

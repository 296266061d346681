import { z } from 'zod';
import { defineJob, jobId } from '../runtime/job-definition';

/** How often every source is polled (the schedule's interval; also the slot of the poll job ids). */
export const NEWS_POLL_EVERY_MS = 3 * 60_000;

/** The news job ids, each following from its natural key (same work, same id: BullMQ adds it once). */
export const newsJobIds = {
  /** One poll of a source per schedule slot, however many workers fan out the same tick. */
  poll: (source: string, at: Date) => jobId('news.poll', source, Math.floor(at.getTime() / NEWS_POLL_EVERY_MS)),
};

export const newsJobs = {
  'news.poll-all': defineJob({
    queue: 'news',
    description: 'Queues one news.poll per configured source (the feeds in NEWS_FEEDS and the SEC current filings)',
    payload: z.object({}).strict(),
    options: { attempts: 2, backoff: { type: 'exponential', delay: 5000 } },
  }),
  'news.poll': defineJob({
    queue: 'news',
    description:
      'Fetches one news source, stores its new items (deduplicated by source and GUID or link), links them to the ' +
      'markets they name and trims the source to its bounded history. Failures are recorded on source health and retried',
    payload: z.object({ source: z.string().trim().min(1).max(50) }).strict(),
    // A failing feed is retried with backoff; the next schedule slot polls it again anyway.
    options: { attempts: 3, backoff: { type: 'exponential', delay: 10_000 } },
  }),
};

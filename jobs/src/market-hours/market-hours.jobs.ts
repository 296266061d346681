import { z } from 'zod';
import { defineJob, jobId } from '../runtime/job-definition';
import { MAX_DELIVERY_BATCH } from '../notifications/notifications.jobs';
import { MARKET_EVENT_KINDS } from './market-hours';

/** Followers per notifications.deliver job of a market event. */
export const FAN_OUT_BATCH_SIZE = 1000;

/** The market-hours job ids, each following from its natural key (same work, same id: BullMQ adds it once). */
export const marketHoursJobIds = {
  /** The fan-out of one market event (exchange, local trading date, kind). */
  fanOut: (eventKey: string) => jobId('market-hours.fan-out', eventKey),
};

export const marketEventNoticeSchema = z
  .object({
    key: z.string().min(1).max(100),
    exchangeId: z.string().min(1).max(10),
    exchangeName: z.string().min(1).max(200),
    timezone: z.string().min(1).max(60),
    kind: z.enum(MARKET_EVENT_KINDS),
    at: z.iso.datetime(),
    date: z.iso.date(),
    localTime: z.string().regex(/^\d{2}:\d{2}$/),
    minutesToTransition: z.number().int().min(0),
  })
  .strict();

export const marketHoursJobs = {
  'market-hours.clock': defineJob({
    queue: 'market-hours',
    description:
      'Every minute: computes the market events (opening soon, opened, closing soon, closed) due since the last run, ' +
      'claims each once per exchange, local trading day and kind, and queues its fan-out',
    payload: z.object({}).strict(),
    // The next minute's run covers the same window again: a short retry is enough.
    options: { attempts: 2, backoff: { type: 'fixed', delay: 5000 }, removeOnComplete: { age: 3600, count: 100 } },
  }),
  'market-hours.fan-out': defineJob({
    queue: 'market-hours',
    description: 'Finds the users to notify of one market event, in keyset pages, and queues one notifications.deliver job per page',
    payload: z
      .object({
        event: marketEventNoticeSchema,
        batchSize: z.number().int().min(1).max(MAX_DELIVERY_BATCH).default(FAN_OUT_BATCH_SIZE),
      })
      .strict(),
  }),
};

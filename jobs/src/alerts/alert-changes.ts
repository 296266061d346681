import type Redis from 'ioredis';
import { z } from 'zod';

/**
 * Keeps every worker's in-memory alert index in step with the database: whoever creates,
 * updates or deletes an alert (the api, the expiry sweep) publishes its id on
 * `<prefix>:alerts:changed`; each worker process reloads that alert from the database (a row
 * that is gone or inactive leaves the index). Indexes are rebuilt from the database on start,
 * so a message lost while a worker was down changes nothing.
 */
export function alertChangesChannel(prefix: string): string {
  return `${prefix}:alerts:changed`;
}

export const alertChangeSchema = z.object({ alertIds: z.array(z.number().int().positive()).min(1) });
export type AlertChange = z.infer<typeof alertChangeSchema>;

/** Announces that these alerts changed (created, edited, deleted, deactivated). Call after the commit. */
export async function publishAlertChanges(redis: Redis, prefix: string, alertIds: readonly number[]): Promise<void> {
  if (!alertIds.length) return;
  await redis.publish(alertChangesChannel(prefix), JSON.stringify({ alertIds: [...alertIds] } satisfies AlertChange));
}

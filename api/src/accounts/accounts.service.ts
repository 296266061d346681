import type { JobQueues } from '@tickerbell/jobs';
import type { MailMessage } from '@tickerbell/jobs/mail';
import { HttpError } from '../http/errors';

export const notAuthenticated = () => new HttpError(401, 'unauthorized', 'Not authenticated');

/** The api never sends mail itself: the workers do (mail.send). */
export async function enqueueMail(queues: JobQueues, message: MailMessage): Promise<void> {
  await queues.add('mail.send', message);
}

export function clientIp(ip: string | undefined): string | null {
  if (!ip) return null;
  // IPv4 clients of a dual-stack socket appear as ::ffff:a.b.c.d.
  return (ip.startsWith('::ffff:') ? ip.slice(7) : ip).slice(0, 45);
}

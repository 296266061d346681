import { housekeepingHandlers } from './housekeeping/housekeeping.processor';
import { cotHandlers } from './cot/cot.processor';
import { mailHandlers } from './mail/mail.processor';
import { marketHoursHandlers } from './market-hours/market-clock.processor';
import { notificationsHandlers } from './notifications/notifications.processor';
import { alertsHandlers } from './alerts/alerts.processor';
import { pricesHandlers } from './prices/prices.processor';
import type { JobHandler } from './runtime/job-handler';

/** Every job handler. The workers refuse to start unless each job name has exactly one. */
export const HANDLERS: JobHandler[] = [...housekeepingHandlers, ...cotHandlers, ...mailHandlers, ...marketHoursHandlers, ...notificationsHandlers, ...alertsHandlers, ...pricesHandlers];

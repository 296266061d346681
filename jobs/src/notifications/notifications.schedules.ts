import type { ScheduleDefinition } from '../schedules';
import { TELEGRAM_UPDATES_EVERY_MS } from './notifications.jobs';

export const NOTIFICATIONS_SCHEDULES: ScheduleDefinition<'notifications.telegram-updates'>[] = [
  {
    id: 'notifications.telegram-updates',
    job: 'notifications.telegram-updates',
    data: {},
    repeat: { every: TELEGRAM_UPDATES_EVERY_MS },
    description: 'Every 3 s: read the Telegram bot\'s new messages and link the chats that sent a valid one-time code (only with TELEGRAM_BOT_TOKEN)',
    enabled: (configs) => Boolean(configs.notifications.TELEGRAM_BOT_TOKEN),
  },
];

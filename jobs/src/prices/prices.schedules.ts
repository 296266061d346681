import type { ScheduleDefinition } from '../schedules';

export const PRICES_SCHEDULES: ScheduleDefinition<'prices.poll'>[] = [
  {
    id: 'prices.poll-crypto',
    job: 'prices.poll',
    data: { kind: 'crypto' },
    repeat: { every: 10_000 },
    description: 'Every 10 s: quotes of the crypto pairs with an active alert or a watcher',
  },
  {
    id: 'prices.poll-stocks',
    job: 'prices.poll',
    data: { kind: 'stocks' },
    repeat: { every: 60_000 },
    description: 'Every 60 s: quotes of the stocks and ETFs with an alert or a watcher whose exchange is open',
  },
];

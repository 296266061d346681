import type { ScheduleDefinition } from '../schedules';
import { WHALES_SCAN_EVERY_MS } from './whales.jobs';

export const WHALES_SCHEDULES: ScheduleDefinition<'whales.scan'>[] = [
  {
    id: 'whales.scan',
    job: 'whales.scan',
    data: {},
    repeat: { every: WHALES_SCAN_EVERY_MS },
    description: 'Every 12 s (one Ethereum slot): scan the blocks confirmed since the checkpoint',
  },
];

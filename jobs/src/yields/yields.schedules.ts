import type { ScheduleDefinition } from '../schedules';

export const YIELDS_SCHEDULES: ScheduleDefinition<'yields.ingest' | 'yields.prune'>[] = [
  {
    id: 'yields.ingest',
    job: 'yields.ingest',
    data: {},
    // DefiLlama refreshes its pools about hourly; :07 leaves its own run a few minutes.
    repeat: { pattern: '0 7 * * * *', tz: 'UTC' },
    description: 'Hourly at :07 UTC: one snapshot of the tracked pools (DefiLlama /pools, the Uniswap v3 subgraph), then the yield alerts',
  },
  {
    id: 'yields.prune',
    job: 'yields.prune',
    data: {},
    repeat: { pattern: '0 40 3 * * *', tz: 'UTC' },
    description: 'Daily at 03:40 UTC: thin hourly yield snapshots past their retention to one a day, delete the oldest',
  },
];

import type { ScheduleDefinition } from '../schedules';

export const PREDICTIONS_SCHEDULES: ScheduleDefinition[] = [
  // Source: sync and snapshots
  {
    id: 'predictions.sync',
    job: 'predictions.sync',
    data: { tick: true },
    // A tick a minute; the first tick of each PREDICTIONS_SYNC_MINUTES slot runs (a Redis claim), the others answer "not due".
    repeat: { every: 60_000 },
    description: "Every PREDICTIONS_SYNC_MINUTES (default 5): sync Polymarket's active markets (new, changed, closed, resolved)",
  },
  {
    id: 'predictions.snapshot',
    job: 'predictions.snapshot',
    data: { tick: true },
    repeat: { every: 60_000 },
    description: 'Every PREDICTIONS_SNAPSHOT_MINUTES (default 15): a price snapshot of every market someone forecast or follows',
  },
  // Forecasts and performance
  // Mispricing
  {
    id: 'predictions.mispricing',
    job: 'predictions.mispricing',
    data: { tick: true },
    // A tick a minute; the first tick of each PREDICTIONS_MISPRICING_MINUTES slot runs (a Redis claim), the others answer "not due".
    repeat: { every: 60_000 },
    description: 'Every PREDICTIONS_MISPRICING_MINUTES (default 5): recompute the mispricing alerts of active markets and notify followers of new ones',
  },
];

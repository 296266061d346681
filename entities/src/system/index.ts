export * from './source-health.entity';
export * from './processed-event.entity';
export * from './seed-history.entity';

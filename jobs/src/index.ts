// The shared runtime of every domain: queues, the job registry, schedules, the domains list,
// configuration parsing and the runtime pieces. A domain's own API is its entry,
// `@tickerbell/jobs/<domain>` (jobs/src/<domain>/index.ts); its HTTP shapes are
// `@tickerbell/jobs/<domain>/shapes`.
export * from './config/env';
export * from './queues';
export * from './registry';
export * from './schedules';
export * from './domains';
export * from './runtime/domain';
export * from './runtime/clock';
export * from './runtime/job-definition';
export * from './runtime/job-handler';
export * from './runtime/job-queues';
export * from './runtime/logger';
export * from './runtime/redis';
export * from './runtime/heartbeat';
export * from './runtime/metrics';

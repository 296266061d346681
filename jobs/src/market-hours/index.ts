export * from './market-hours';
export * from './market-hours.import';
export * from './market-hours.repository';
export * from './market-hours.jobs';
export * from './market-hours.schedules';
export * from './market-clock';
export * from './market-followers';
export * from './market-notification';

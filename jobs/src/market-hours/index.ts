export * from './market-hours';
export * from './market-hours.import';
export * from './market-hours.repository';

export * from './alert.entity';
export * from './alert-log.entity';

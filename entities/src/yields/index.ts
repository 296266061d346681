export * from './yield-pool.entity';
export * from './yield-data.entity';
export * from './yield-alert.entity';
export * from './yield-alert-log.entity';

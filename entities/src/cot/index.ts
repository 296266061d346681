export * from './cot-instrument.entity';
export * from './cot-report.entity';
export * from './cot-position.entity';
export * from './cot-analytics.entity';
export * from './cot-follow.entity';

export * from './insider-trading-company.entity';
export * from './insider-trading-insider.entity';
export * from './insider-trading-transaction.entity';
export * from './insider-trading-analytics.entity';

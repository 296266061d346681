export * from './insider-trading-company.entity';
export * from './insider-trading-insider.entity';
export * from './insider-trading-filing.entity';
export * from './insider-trading-filing-owner.entity';
export * from './insider-trading-transaction.entity';
export * from './insider-trading-analytics.entity';
export * from './insider-trading-index-day.entity';
export * from './insider-follow.entity';

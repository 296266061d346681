export * from './exchange.entity';
export * from './exchange-calendar-day.entity';
export * from './exchange-follow.entity';

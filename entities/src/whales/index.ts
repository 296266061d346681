export * from './whale-address.entity';
export * from './user-watchlist.entity';
export * from './whale-transaction.entity';
export * from './whale-alert.entity';

export * from './whale-address.entity';
export * from './user-watchlist.entity';
export * from './whale-transaction.entity';
export * from './whale-alert.entity';
export * from './whale-block.entity';
export * from './whale-scan-state.entity';
export * from './whale-token.entity';
export * from './whale-netflow.entity';

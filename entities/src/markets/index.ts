export * from './market.entity';
export * from './chart-layout.entity';
export * from './watchlist.entity';
export * from './watchlist-item.entity';
export * from './price-bar.entity';

export * from './news-item.entity';
export * from './news-item-market.entity';

export * from './product.entity';
export * from './price.entity';
export * from './subscription.entity';
export * from './subscription-event.entity';

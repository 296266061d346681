export * from './notification.entity';
export * from './push-subscription.entity';

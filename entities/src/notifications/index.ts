export * from './notification.entity';
export * from './push-subscription.entity';
export * from './telegram-link.entity';
export * from './telegram-link-code.entity';

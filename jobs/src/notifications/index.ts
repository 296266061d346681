export * from './notification-content';
export * from './notification-channel';
export * from './notification-delivery';
export * from './notifications.jobs';
export * from './push-delivery';
export * from './push-sender';
export * from './queues-redis';
export * from './vapid-keys';

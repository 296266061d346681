export * from './lockup-event.entity';
export * from './lockup-follow.entity';
export * from './lockup-notice.entity';

export * from './lockup-event.entity';

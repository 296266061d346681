export * from './mail.config';
export * from './mail.jobs';
export * from './mailer';
export * from './mail.processor';

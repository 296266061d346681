export * from './contact-message.entity';

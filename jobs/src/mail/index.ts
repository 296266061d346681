export { type MailMessage } from './mail.jobs';
export { createMailer, type Mailer } from './mailer';

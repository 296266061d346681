import { UnrecoverableError } from 'bullmq';
import { defineHandler } from '../runtime/job-handler';

export const mailHandlers = [
  defineHandler('mail.send', async (message, { mailer, logger }) => {
    // A worker started without a mailer cannot ever send: fail for good instead of retrying.
    if (!mailer) throw new UnrecoverableError('This worker has no mailer (JobContext.mailer)');
    const delivery = await mailer.send(message);
    logger.info({ to: message.to, subject: message.subject, via: delivery.via, messageId: delivery.messageId }, 'mail sent');
    return delivery;
  }),
];

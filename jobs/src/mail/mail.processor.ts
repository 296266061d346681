import { UnrecoverableError } from 'bullmq';
import { findUser } from '../accounts/accounts.store';
import { isDelivered, setDeliveryReceipt } from '../notifications/delivery-receipts';
import { defineHandler } from '../runtime/job-handler';
import { countDeliveries, failedDeliveryOutcome } from '../runtime/metrics';

export const mailHandlers = [
  defineHandler('mail.send', async ({ userId, receipt, ...message }, { mailer, logger, job, dataSource }) => {
    // A notification's copy whose recipient deleted the account meanwhile: nothing to send.
    if (userId !== undefined && !(await findUser(dataSource, userId))) return { skipped: 'account deleted' as const };
    // Its receipt is set: an earlier run sent it (the job ran again after the send).
    if (receipt && (await isDelivered(dataSource, receipt))) return { skipped: 'already sent' as const };
    // A worker started without a mailer cannot ever send: fail for good instead of retrying.
    if (!mailer) {
      countDeliveries('email', 'failed');
      throw new UnrecoverableError('This worker has no mailer (JobContext.mailer)');
    }
    let delivery;
    try {
      delivery = await mailer.send(message);
    } catch (error) {
      countDeliveries('email', failedDeliveryOutcome(job, error instanceof UnrecoverableError));
      throw error;
    }
    countDeliveries('email', 'sent');
    logger.info({ to: message.to, subject: message.subject, via: delivery.via, messageId: delivery.messageId }, 'mail sent');
    // The producer's record of where its notification went (a yield alert log's email_sent).
    const receiptSet = receipt ? await setDeliveryReceipt(dataSource, receipt) : false;
    return receipt ? { ...delivery, receiptSet } : delivery;
  }),
];

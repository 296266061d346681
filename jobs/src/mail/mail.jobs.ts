import { z } from 'zod';
import { deliveryReceiptSchema } from '../notifications/delivery-receipts';
import { defineJob } from '../runtime/job-definition';

export const mailMessageSchema = z
  .object({
    to: z.email().max(255),
    subject: z.string().min(1).max(200),
    text: z.string().min(1).max(20000),
    html: z.string().max(50000).optional(),
    /** The account the email is for (a notification's copy): not sent once that account is deleted. */
    userId: z.number().int().positive().optional(),
    /** The producer's "email sent" flag, set after a successful send; already set: not sent again. */
    receipt: deliveryReceiptSchema.optional(),
  })
  .strict();

/** What the mailer sends (the job's bookkeeping fields taken off). */
export type MailMessage = Omit<z.infer<typeof mailMessageSchema>, 'receipt'>;

export const mailJobs = {
  'mail.send': defineJob({
    queue: 'mail',
    description: 'Sends one email through SMTP (SMTP_URL), or writes it to the outbox folder when SMTP is not configured',
    payload: mailMessageSchema,
  }),
};

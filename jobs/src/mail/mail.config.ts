import { z } from 'zod';

/** Mail transport settings of the workers (the api never sends mail itself: it enqueues `mail.send`). */
export const mailEnvSchema = z.object({
  /** smtp://user:pass@host:587 or smtps://...:465; unset: mail goes to MAIL_OUTBOX_DIR and the log. */
  SMTP_URL: z
    .string()
    .refine((value) => /^smtps?:\/\//.test(value), 'must be a URL starting with smtp:// or smtps://')
    .optional(),
  MAIL_FROM: z.string().min(3).default('Tickerbell <no-reply@localhost>'),
  MAIL_OUTBOX_DIR: z.string().default('.data/outbox'),
});

export type MailEnv = z.infer<typeof mailEnvSchema>;

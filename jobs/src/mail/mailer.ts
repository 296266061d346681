import fs from 'node:fs/promises';
import path from 'node:path';
import nodemailer, { type Transporter } from 'nodemailer';
import type { Logger } from '../runtime/logger';
import type { MailMessage } from './mail.jobs';

export interface MailDelivery {
  messageId: string;
  via: 'smtp' | 'outbox';
  /** The .eml file, for outbox delivery. */
  file?: string;
}

/** Sends mail for the workers (JobContext.mailer). */
export interface Mailer {
  send(message: MailMessage): Promise<MailDelivery>;
  close(): void;
}

export interface MailerOptions {
  smtpUrl?: string;
  from: string;
  outboxDir: string;
  logger: Logger;
  /** Outbox mode only: also log the message text, so local links (verification, reset) are at hand. */
  logBodies?: boolean;
}

function smtpMailer(transport: Transporter, from: string): Mailer {
  return {
    async send(message) {
      const info = await transport.sendMail({ from, ...message });
      return { messageId: String(info.messageId), via: 'smtp' };
    },
    close: () => transport.close(),
  };
}

/** Without SMTP the local system stays usable: each message becomes an .eml file and a log line. */
function outboxMailer(options: MailerOptions): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  return {
    async send(message) {
      const info = await transport.sendMail({ from: options.from, ...message });
      const messageId = String(info.messageId);
      await fs.mkdir(options.outboxDir, { recursive: true });
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${messageId.replace(/[^A-Za-z0-9._-]/g, '')}.eml`;
      const file = path.resolve(options.outboxDir, name);
      await fs.writeFile(file, info.message as Buffer);
      options.logger.info(
        { to: message.to, subject: message.subject, file, ...(options.logBodies ? { text: message.text } : {}) },
        'mail written to the outbox (SMTP_URL is not set)',
      );
      return { messageId, via: 'outbox', file };
    },
    close: () => transport.close(),
  };
}

export function createMailer(options: MailerOptions): Mailer {
  if (options.smtpUrl) return smtpMailer(nodemailer.createTransport(options.smtpUrl), options.from);
  return outboxMailer(options);
}

import type { AddressInfo } from 'node:net';
import PostalMime from 'postal-mime';
import { SMTPServer } from 'smtp-server';

export interface CapturedMail {
  to: string[];
  from: string;
  subject: string;
  text: string;
}

/** A real SMTP server on 127.0.0.1 that keeps every message it receives, parsed. */
export class SmtpCapture {
  readonly messages: CapturedMail[] = [];
  private server?: SMTPServer;
  private waiters: (() => void)[] = [];

  async start(): Promise<string> {
    this.server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (chunk: Buffer) => chunks.push(chunk));
        stream.on('end', () => {
          PostalMime.parse(Buffer.concat(chunks))
            .then((email) => {
              this.messages.push({
                to: session.envelope.rcptTo.map((r) => r.address),
                from: email.from?.address ?? '',
                subject: email.subject ?? '',
                text: email.text ?? '',
              });
              this.waiters.splice(0).forEach((wake) => wake());
              callback();
            })
            .catch((error: Error) => callback(error));
        });
      },
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.server.address() as AddressInfo;
    return `smtp://127.0.0.1:${port}`;
  }

  /** The first message (received so far or later) to `to` whose subject matches. */
  async waitFor(to: string, subject: RegExp, timeoutMs = 10000): Promise<CapturedMail> {
    return (await this.waitForCount(to, subject, 1, timeoutMs))[0];
  }

  /** The first `count` messages to `to` whose subject matches, once that many have arrived. */
  async waitForCount(to: string, subject: RegExp, count: number, timeoutMs = 10000): Promise<CapturedMail[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const found = this.messages.filter((m) => m.to.includes(to) && subject.test(m.subject));
      if (found.length >= count) return found.slice(0, count);
      if (Date.now() > deadline) throw new Error(`no mail to ${to} matching ${subject} within ${timeoutMs} ms (got ${this.messages.map((m) => `${m.to}: ${m.subject}`).join('; ')})`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 100);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  stop(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** The first link in a mail's text that starts with `prefix`. */
export function linkIn(mail: CapturedMail, prefix: string): URL {
  const match = mail.text.match(/https?:\/\/\S+/g)?.find((url) => url.startsWith(prefix));
  if (!match) throw new Error(`no link starting with ${prefix} in: ${mail.text}`);
  return new URL(match);
}

import { defineDomain } from '../runtime/domain';
import { mailEnvSchema } from './mail.config';
import { mailHandlers } from './mail.processor';

/** Mail in the workers: the transport (SMTP or the outbox) is the process's mailer, in JobContext. */
export const mailDomain = defineDomain({
  name: 'mail',
  env: mailEnvSchema,
  start() {
    return { handlers: mailHandlers };
  },
});

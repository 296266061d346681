import { defineDomain } from '../runtime/domain';
import { chatEnvSchema } from './chat.config';

/**
 * Chat in the workers: no jobs of its own (posting, the live relay and notifications run in the
 * api); listed so that its variables are validated by every process at start with the others.
 */
export const chatDomain = defineDomain({
  name: 'chat',
  env: chatEnvSchema,
  start() {
    return { handlers: [] };
  },
});

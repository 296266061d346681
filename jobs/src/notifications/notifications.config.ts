import { parseEnv } from '../config/env';
import { pushEnvSchema, type PushEnv } from './vapid-keys';

/** The notifications variables: web push (VAPID keys, timeouts, outbound rule), checked together. */
export const notificationsEnvSchema = pushEnvSchema.superRefine((env, ctx) => {
  if (Boolean(env.VAPID_PUBLIC_KEY) !== Boolean(env.VAPID_PRIVATE_KEY)) {
    ctx.addIssue({
      code: 'custom',
      path: [env.VAPID_PUBLIC_KEY ? 'VAPID_PRIVATE_KEY' : 'VAPID_PUBLIC_KEY'],
      message: 'set VAPID_PUBLIC_KEY and VAPID_PRIVATE_KEY together, or neither',
    });
  }
});

export type NotificationsConfig = PushEnv;

/** The push settings alone (tools and tests); processes get them with every other variable at start. */
export function readPushEnv(env: Record<string, string | undefined>, processName = 'push'): PushEnv {
  return parseEnv(notificationsEnvSchema, env, processName);
}

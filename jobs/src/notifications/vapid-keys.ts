import type Redis from 'ioredis';
import webpush from 'web-push';
import { z } from 'zod';

/** Web push settings; VAPID keys from the environment, else generated once and kept in Redis. */
export const pushEnvSchema = z.object({
  /** base64url P-256 public key (65 bytes uncompressed); set with VAPID_PRIVATE_KEY or neither. */
  VAPID_PUBLIC_KEY: z.string().min(80).optional(),
  VAPID_PRIVATE_KEY: z.string().min(40).optional(),
  /** Contact of the sender for push services: a mailto: or https: URL. */
  VAPID_SUBJECT: z
    .string()
    .refine((v) => /^(mailto:|https:\/\/)/.test(v), 'must start with mailto: or https://')
    .default('mailto:admin@localhost'),
  /** Milliseconds before a push request's socket is given up (always set). */
  PUSH_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  /**
   * Whether push endpoints and alert webhooks may be loopback or private addresses
   * (jobs/src/sources/outbound-guard.ts). Default: allowed outside production, refused in it.
   */
  OUTBOUND_ALLOW_PRIVATE: z.enum(['true', 'false']).optional(),
});
export type PushEnv = z.infer<typeof pushEnvSchema>;

/** Whether user-chosen outbound URLs (push endpoints, webhooks) may reach private addresses. */
export function allowsPrivateOutbound(env: Pick<PushEnv, 'NODE_ENV' | 'OUTBOUND_ALLOW_PRIVATE'>): boolean {
  return env.OUTBOUND_ALLOW_PRIVATE ? env.OUTBOUND_ALLOW_PRIVATE === 'true' : env.NODE_ENV !== 'production';
}

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  subject: string;
  /** Where the keys came from: configuration, or generated on a first start and stored. */
  source: 'config' | 'stored';
}

export function vapidKeysKey(prefix: string): string {
  return `${prefix}:push:vapid-keys`;
}

const storedSchema = z.object({ publicKey: z.string(), privateKey: z.string() });

/**
 * The deployment's VAPID keys. Configured keys win. Otherwise the first process to ask generates
 * a pair and stores it with SET NX, so every api and worker process (and every later start)
 * agrees on one pair; browsers subscribed with it keep working across restarts. Redis must then
 * be persistent: losing the key means new keys and every existing subscription stops working.
 */
export async function resolveVapidKeys(redis: Redis, prefix: string, env: PushEnv): Promise<VapidKeys> {
  if (env.VAPID_PUBLIC_KEY && env.VAPID_PRIVATE_KEY) {
    return { publicKey: env.VAPID_PUBLIC_KEY, privateKey: env.VAPID_PRIVATE_KEY, subject: env.VAPID_SUBJECT, source: 'config' };
  }
  const key = vapidKeysKey(prefix);
  const generated = webpush.generateVAPIDKeys();
  await redis.set(key, JSON.stringify(generated), 'NX');
  const stored = storedSchema.parse(JSON.parse((await redis.get(key)) ?? 'null'));
  return { ...stored, subject: env.VAPID_SUBJECT, source: 'stored' };
}

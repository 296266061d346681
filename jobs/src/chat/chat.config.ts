import { z } from 'zod';
import { parseEnv } from '../config/env';

/** The chat variables (docs/chat.md, "Configuration"), validated by the api and every worker at start. */
export const chatEnvSchema = z.object({
  /** Messages per second a member may post, sustained (Redis rate limiter shared by every api instance). */
  CHAT_RATE_PER_SECOND: z.coerce.number().int().min(1).max(100).default(1),
  /** Messages a member may post at once before the per-second rate applies (the burst). */
  CHAT_RATE_BURST: z.coerce.number().int().min(1).max(100).default(3),
  /** Accounts younger than this (minutes since creation, or since verification when known) cannot post links. */
  CHAT_NEW_ACCOUNT_LINK_MINUTES: z.coerce.number().int().min(0).max(525_600).default(60),
  /** Seconds a member stays "online" in a room after the last heartbeat or stream refresh. */
  CHAT_PRESENCE_TTL_SECONDS: z.coerce.number().int().min(5).max(3600).default(60),
});

export type ChatConfig = z.infer<typeof chatEnvSchema>;

export function loadChatConfig(env: Record<string, string | undefined>): ChatConfig {
  return parseEnv(chatEnvSchema, env, 'chat');
}

/** The defaults alone (tests, bench). */
export function defaultChatConfig(): ChatConfig {
  return chatEnvSchema.parse({});
}

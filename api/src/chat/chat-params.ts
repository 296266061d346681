import { z } from 'zod';

// Path and body ids of the chat routes, shared by chat.routes.ts and chat-moderation.routes.ts (a
// module of their own: chat.routes mounts the moderation routes, so neither can import the other's
// schemas at load time).

const BIGINT_MAX = 9223372036854775807n;

/** A message id: a positive bigint in decimal. One refinement: zod runs refinements after a failed regex too, so BigInt only sees digits. */
export const chatMessageIdSchema = z
  .string()
  .max(19, 'a message id (a positive integer)')
  .refine((value) => /^[1-9]\d{0,18}$/.test(value) && BigInt(value) <= BIGINT_MAX, 'a message id (a positive integer)');

import { z } from 'zod';
import { pathIdSchema } from '../http/input';

// Path and body ids of the chat routes, shared by chat.routes.ts, chat-moderation.routes.ts and
// chat-invites.routes.ts (a module of their own: chat.routes mounts the other two, so none can import
// another's schemas at load time).

/** `:id` of a room's routes. */
export const chatRoomParamsSchema = z.object({ id: pathIdSchema });

const BIGINT_MAX = 9223372036854775807n;

/** A message id: a positive bigint in decimal. One refinement: zod runs refinements after a failed regex too, so BigInt only sees digits. */
export const chatMessageIdSchema = z
  .string()
  .max(19, 'a message id (a positive integer)')
  .refine((value) => /^[1-9]\d{0,18}$/.test(value) && BigInt(value) <= BIGINT_MAX, 'a message id (a positive integer)');

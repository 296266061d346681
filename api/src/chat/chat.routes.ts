import { Router, type Request } from 'express';
import type Redis from 'ioredis';
import type { DataSource } from 'typeorm';
import { z } from 'zod';
import { chatMessageIdSchema, chatRoomParamsSchema } from './chat-params';
import { systemClock, type Clock, type JobQueues, type Logger } from '@tickerbell/jobs';
import type { Entitlements } from '@tickerbell/jobs/billing';
import {
  CHAT_MEMBERS_MAX_LIMIT,
  ChatError,
  addReaction,
  chatEnvSchema,
  createRoom,
  deleteOwnMessage,
  deleteRoom,
  editMessage,
  followThread,
  getChatPreferences,
  getRoom,
  getThread,
  heartbeat,
  joinRoom,
  leaveRoom,
  listMembers,
  listMentions,
  listRooms,
  markMentionsRead,
  markRoomRead,
  postMessage,
  removeReaction,
  roomHistory,
  roomPresence,
  roomSentiment,
  sendTyping,
  setRoomPreferences,
  unfollowThread,
  updateChatPreferences,
  updateRoom,
  vanishedTarget,
  type ChatConfig,
  type ChatDeps,
  type ChatErrorCode,
} from '@tickerbell/jobs/chat';
import {
  CHAT_HISTORY_MAX_LIMIT,
  CHAT_MESSAGE_MAX,
  CHAT_NOTIFY_LEVELS,
  CHAT_ROOM_DESCRIPTION_MAX,
  CHAT_ROOM_NAME_MAX,
  CHAT_SENTIMENTS,
  CHAT_SLOW_MODE_MAX_SECONDS,
  type ChatCreateRoomInput,
  type ChatUpdateRoomInput,
} from '@tickerbell/jobs/chat/shapes';
import { requireUser, sessionUser } from '../accounts/require-user';
import { HttpError } from '../http/errors';
import { int4Id } from '../http/input';
import { chatInvitesRoutes } from './chat-invites.routes';
import { chatModerationRoutes } from './chat-moderation.routes';

export interface ChatRouteDeps {
  dataSource: DataSource;
  redis: Redis;
  queues: JobQueues;
  logger: Logger;
  /** The chat variables (validated at start with every domain's); defaults when a test passes none. */
  config: Partial<ChatConfig>;
  clock?: Clock;
}

// ---- schemas (built from @tickerbell/jobs/chat/shapes) -------------------------------------------

export { chatMessageIdSchema };


// A room's fields as typed: the store trims them and applies the rules (bad_room naming the field:
// name 3..60 characters, description at most 280); far longer text is refused here already.
const roomNameSchema = z.string().max(CHAT_ROOM_NAME_MAX * 4, `at most ${CHAT_ROOM_NAME_MAX} characters`);
const roomDescriptionSchema = z.string().max(CHAT_ROOM_DESCRIPTION_MAX * 4, `at most ${CHAT_ROOM_DESCRIPTION_MAX} characters`).nullable();
const slowModeSchema = z.number().int('whole seconds').min(0).max(CHAT_SLOW_MODE_MAX_SECONDS, `at most ${CHAT_SLOW_MODE_MAX_SECONDS} seconds`);

/** POST /api/chat/rooms (ChatCreateRoomInput). */
export const chatCreateRoomBodySchema = z
  .object({
    name: roomNameSchema,
    description: roomDescriptionSchema.optional(),
    isPrivate: z.boolean().optional(),
    slowModeSeconds: slowModeSchema.optional(),
  })
  .strict();

/** PATCH /api/chat/rooms/:id (ChatUpdateRoomInput): at least one field. */
export const chatUpdateRoomBodySchema = z
  .object({
    name: roomNameSchema.optional(),
    description: roomDescriptionSchema.optional(),
    slowModeSeconds: slowModeSchema.optional(),
    isPrivate: z.boolean().optional(),
  })
  .strict()
  .refine((body) => body.name !== undefined || body.description !== undefined || body.slowModeSeconds !== undefined || body.isPrivate !== undefined, {
    message: 'name, description, slowModeSeconds or isPrivate',
    path: ['name'],
  });
export const chatMessageParamsSchema = z.object({ id: chatMessageIdSchema });

/** Text as typed: the store trims it and refuses an empty one (empty_message); longer than 2,000 characters is refused here. */
const textSchema = z.string().max(CHAT_MESSAGE_MAX * 2, `at most ${CHAT_MESSAGE_MAX} characters`);

export const chatPostBodySchema = z
  .object({
    text: textSchema,
    replyToMessageId: chatMessageIdSchema.optional(),
    sentiment: z.enum(CHAT_SENTIMENTS).optional(),
  })
  .strict();
export const chatPatchMessageBodySchema = z.object({ text: textSchema }).strict();

export const chatHistoryQuerySchema = z
  .object({
    before: chatMessageIdSchema.optional(),
    after: chatMessageIdSchema.optional(),
    around: z.union([z.literal('unread'), chatMessageIdSchema]).optional(),
    limit: z.coerce.number().int().min(1).max(CHAT_HISTORY_MAX_LIMIT).optional(),
  })
  .strict()
  .superRefine((query, ctx) => {
    const given = (['before', 'after', 'around'] as const).filter((k) => query[k] !== undefined);
    if (given.length > 1) ctx.addIssue({ code: 'custom', path: [given[1]], message: 'one of before, after and around at most' });
  });

/** A reaction as sent: the store checks it is one emoji (bad_reaction); a long string is refused here already. */
const reactionSchema = z.string().min(1, 'an emoji').max(64, 'one emoji of at most 10 characters');
export const chatReactionBodySchema = z.object({ reaction: reactionSchema }).strict();
export const chatReactionQuerySchema = z.object({ reaction: reactionSchema }).strict();

/** An instant: an ISO 8601 date-time with an offset (Z or ±hh:mm). */
const instantSchema = z.iso.datetime({ offset: true }).transform((value) => new Date(value));

export const chatRoomPreferencesBodySchema = z
  .object({
    notifyLevel: z.enum(CHAT_NOTIFY_LEVELS).optional(),
    /** With notifyLevel 'mute': until when (null or absent: until unmuted). */
    mutedUntil: instantSchema.nullable().optional(),
  })
  .strict()
  .refine((body) => body.notifyLevel !== undefined || body.mutedUntil !== undefined, { message: 'notifyLevel or mutedUntil', path: ['notifyLevel'] });

export const chatMarkReadBodySchema = z.object({ messageId: chatMessageIdSchema }).strict();

export const chatMentionsQuerySchema = z
  .object({
    cursor: z.string().regex(/^\d{1,10}$/, 'a cursor from nextCursor').optional(),
    limit: z.coerce.number().int().min(1).max(100).optional(),
    unreadOnly: z.enum(['true', 'false']).optional(),
  })
  .strict();
export const chatMembersQuerySchema = z
  .object({
    cursor: z.string().regex(/^\d{1,7}$/, 'a cursor from nextCursor').optional(),
    limit: z.coerce.number().int().min(1).max(CHAT_MEMBERS_MAX_LIMIT).optional(),
  })
  .strict();
export const chatMentionsReadBodySchema = z.object({ roomId: int4Id.optional() }).strict();

export const chatPreferencesBodySchema = z
  .object({
    soundNotifications: z.boolean().optional(),
    desktopNotifications: z.boolean().optional(),
    showOnlineStatus: z.boolean().optional(),
  })
  .strict();

// ---- errors --------------------------------------------------------------------------------------

/** Each refusal of the chat domain as an HTTP status (docs/chat.md, "API"). */
export const CHAT_ERROR_STATUS: Record<ChatErrorCode, number> = {
  unknown_room: 404,
  unknown_message: 404,
  unknown_user: 404,
  not_member: 403,
  private_room: 403,
  not_author: 403,
  not_moderator: 403,
  muted: 403,
  banned: 403,
  links_not_allowed: 403,
  cannot_target: 403,
  rate_limited: 429,
  slow_mode: 429,
  wrong_room: 400,
  empty_message: 400,
  message_too_long: 400,
  bad_reaction: 400,
  bad_cursor: 400,
  message_deleted: 409,
  already_reported: 409,
  bad_room: 400,
  room_name_taken: 409,
  not_owner: 403,
  role_unchanged: 409,
  bad_invite: 400,
  not_private: 409,
  unknown_invite: 404,
  owner_cannot_leave: 409,
  too_many_invites: 409,
};

/** A ChatError as the HttpError the error handler answers (field named in details, Retry-After when limited). */
export function chatHttpError(error: ChatError): HttpError {
  const headers: Record<string, string> = error.retryAfterSeconds !== undefined ? { 'Retry-After': String(error.retryAfterSeconds) } : {};
  const details: Record<string, unknown>[] = [
    {
      ...(error.field ? { field: error.field } : {}),
      message: error.message,
      ...(error.retryAfterSeconds !== undefined ? { retryAfterSeconds: error.retryAfterSeconds } : {}),
      ...(error.until !== undefined ? { until: error.until } : {}),
    },
  ];
  return new HttpError(CHAT_ERROR_STATUS[error.code] ?? 400, error.code, error.message, details, headers);
}

/** Runs a store call, answering its ChatError as the matching HTTP error (chatHttpError). */
export async function http<T>(run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (error) {
    if (error instanceof ChatError) throw chatHttpError(error);
    // A write racing the deletion of its room: the answer of a moment later (404), not a 500.
    const vanished = vanishedTarget(error);
    if (vanished) throw chatHttpError(vanished);
    throw error;
  }
}

/** The chat dependencies of a request: the clock is read once per request. */
export function chatDepsOf(deps: ChatRouteDeps): () => ChatDeps {
  const config = chatEnvSchema.parse(Object.fromEntries(Object.entries(deps.config).filter(([key]) => key.startsWith('CHAT_'))));
  const clock = deps.clock ?? systemClock;
  return () => ({ dataSource: deps.dataSource, redis: deps.redis, queues: deps.queues, prefix: deps.queues.prefix, config, now: clock.now(), logger: deps.logger });
}

const roomIdOf = (req: Request) => Number(chatRoomParamsSchema.parse(req.params).id);
const messageIdOf = (req: Request) => chatMessageParamsSchema.parse(req.params).id;

// ---- routes --------------------------------------------------------------------------------------

/**
 * Chat: rooms (made by users too: the plan's chatRoomsCreated), history, posting, reactions,
 * threads, reads, mentions, presence, preferences; C2's moderation routes; invite links.
 */
export function chatRoutes(deps: ChatRouteDeps & { entitlements: Entitlements }): Router {
  const router = Router();
  const chat = chatDepsOf(deps);
  const db = deps.dataSource;

  router.get('/chat/rooms', requireUser, async (req, res) => {
    res.set('Cache-Control', 'no-store').json({ rooms: await listRooms(db, sessionUser(req).id, chat().now) });
  });

  // An EntitlementError (plan_limit 403, read_only 402) goes to the app's entitlement handler.
  router.post('/chat/rooms', requireUser, async (req, res) => {
    const body: ChatCreateRoomInput = chatCreateRoomBodySchema.parse(req.body);
    res.status(201).json(await http(() => createRoom({ ...chat(), entitlements: deps.entitlements }, sessionUser(req).id, body)));
  });

  router.patch('/chat/rooms/:id', requireUser, async (req, res) => {
    const roomId = roomIdOf(req);
    const body: ChatUpdateRoomInput = chatUpdateRoomBodySchema.parse(req.body);
    res.json(await http(() => updateRoom(chat(), sessionUser(req).id, roomId, body)));
  });

  router.delete('/chat/rooms/:id', requireUser, async (req, res) => {
    const roomId = roomIdOf(req);
    await http(() => deleteRoom(chat(), sessionUser(req).id, roomId));
    res.status(204).end();
  });

  router.get('/chat/rooms/:id', requireUser, async (req, res) => {
    const roomId = roomIdOf(req);
    res.set('Cache-Control', 'no-store').json(await http(() => getRoom(db, sessionUser(req).id, roomId, chat().now)));
  });

  router.post('/chat/rooms/:id/join', requireUser, async (req, res) => {
    const roomId = roomIdOf(req);
    res.json(await http(() => joinRoom(chat(), sessionUser(req).id, roomId)));
  });

  router.post('/chat/rooms/:id/leave', requireUser, async (req, res) => {
    const roomId = roomIdOf(req);
    await http(() => leaveRoom(chat(), sessionUser(req).id, roomId));
    res.status(204).end();
  });

  router.patch('/chat/rooms/:id/preferences', requireUser, async (req, res) => {
    const roomId = roomIdOf(req);
    const body = chatRoomPreferencesBodySchema.parse(req.body);
    res.json(await http(() => setRoomPreferences(db, sessionUser(req).id, roomId, body, chat().now)));
  });

  router.get('/chat/rooms/:id/messages', requireUser, async (req, res) => {
    const roomId = roomIdOf(req);
    const query = chatHistoryQuerySchema.parse(req.query);
    res.set('Cache-Control', 'no-store').json(await http(() => roomHistory(chat(), sessionUser(req).id, roomId, query)));
  });

  router.post('/chat/rooms/:id/messages', requireUser, async (req, res) => {
    const roomId = roomIdOf(req);
    const body = chatPostBodySchema.parse(req.body);
    const message = await http(() => postMessage(chat(), { userId: sessionUser(req).id, roomId, ...body }));
    res.status(201).json({ message });
  });

  router.post('/chat/rooms/:id/read', requireUser, async (req, res) => {
    const roomId = roomIdOf(req);
    const { messageId } = chatMarkReadBodySchema.parse(req.body);
    res.json(await http(() => markRoomRead(chat(), sessionUser(req).id, roomId, messageId)));
  });

  router.post('/chat/rooms/:id/typing', requireUser, async (req, res) => {
    const roomId = roomIdOf(req);
    await http(() => sendTyping(chat(), sessionUser(req).id, roomId));
    res.status(204).end();
  });

  router.get('/chat/rooms/:id/members', requireUser, async (req, res) => {
    const roomId = roomIdOf(req);
    const query = chatMembersQuerySchema.parse(req.query);
    res.set('Cache-Control', 'no-store').json(await http(() => listMembers(db, sessionUser(req).id, roomId, chat().now, query)));
  });

  router.get('/chat/rooms/:id/presence', requireUser, async (req, res) => {
    const roomId = roomIdOf(req);
    res.set('Cache-Control', 'no-store').json(await http(() => roomPresence(chat(), sessionUser(req).id, roomId)));
  });

  router.post('/chat/rooms/:id/presence', requireUser, async (req, res) => {
    const roomId = roomIdOf(req);
    res.json(await http(() => heartbeat(chat(), sessionUser(req).id, roomId)));
  });

  router.get('/chat/rooms/:id/sentiment', requireUser, async (req, res) => {
    const roomId = roomIdOf(req);
    res.json(await http(() => roomSentiment(db, sessionUser(req).id, roomId, chat().now)));
  });

  router.patch('/chat/messages/:id', requireUser, async (req, res) => {
    const messageId = messageIdOf(req);
    const { text } = chatPatchMessageBodySchema.parse(req.body);
    res.json({ message: await http(() => editMessage(chat(), sessionUser(req).id, messageId, text)) });
  });

  router.delete('/chat/messages/:id', requireUser, async (req, res) => {
    const messageId = messageIdOf(req);
    await http(() => deleteOwnMessage(chat(), sessionUser(req).id, messageId));
    res.status(204).end();
  });

  router.post('/chat/messages/:id/reactions', requireUser, async (req, res) => {
    const messageId = messageIdOf(req);
    const { reaction } = chatReactionBodySchema.parse(req.body);
    res.json(await http(() => addReaction(chat(), sessionUser(req).id, messageId, reaction)));
  });

  router.delete('/chat/messages/:id/reactions', requireUser, async (req, res) => {
    const messageId = messageIdOf(req);
    const { reaction } = chatReactionQuerySchema.parse(req.query);
    res.json(await http(() => removeReaction(chat(), sessionUser(req).id, messageId, reaction)));
  });

  router.get('/chat/messages/:id/thread', requireUser, async (req, res) => {
    const messageId = messageIdOf(req);
    res.set('Cache-Control', 'no-store').json(await http(() => getThread(chat(), sessionUser(req).id, messageId)));
  });

  router.post('/chat/messages/:id/follow', requireUser, async (req, res) => {
    const messageId = messageIdOf(req);
    await http(() => followThread(chat(), sessionUser(req).id, messageId));
    res.status(204).end();
  });

  router.delete('/chat/messages/:id/follow', requireUser, async (req, res) => {
    const messageId = messageIdOf(req);
    await http(() => unfollowThread(chat(), sessionUser(req).id, messageId));
    res.status(204).end();
  });

  router.get('/chat/mentions', requireUser, async (req, res) => {
    const query = chatMentionsQuerySchema.parse(req.query);
    const page = await listMentions(db, sessionUser(req).id, { cursor: query.cursor ?? null, limit: query.limit ?? 50, unreadOnly: query.unreadOnly === 'true' });
    res.set('Cache-Control', 'no-store').json(page);
  });

  router.post('/chat/mentions/read', requireUser, async (req, res) => {
    const { roomId } = chatMentionsReadBodySchema.parse(req.body);
    res.json(await http(() => markMentionsRead(chat(), sessionUser(req).id, roomId ?? null)));
  });

  router.get('/chat/preferences', requireUser, async (req, res) => {
    res.json(await getChatPreferences(db, sessionUser(req).id));
  });

  router.patch('/chat/preferences', requireUser, async (req, res) => {
    const body = chatPreferencesBodySchema.parse(req.body);
    res.json(await updateChatPreferences(db, sessionUser(req).id, body));
  });

  router.use(chatModerationRoutes(deps));
  router.use(chatInvitesRoutes(deps));
  return router;
}

import { Router, type Request } from 'express';
import { z } from 'zod';
import {
  CHAT_MUTE_MAX_MINUTES,
  CHAT_SANCTION_MAX_MINUTES,
  auditLog,
  blockUser,
  listBlocks,
  listReports,
  moderate,
  reportMessage,
  requireModerator,
  unblockUser,
} from '@tickerbell/jobs/chat';
import { CHAT_MODERATION_ACTIONS, CHAT_REASON_MAX, CHAT_RULES, type ChatModerationInput } from '@tickerbell/jobs/chat/shapes';
import { requireUser, sessionUser } from '../accounts/require-user';
import { int4Id, pathIdSchema } from '../http/input';
// Functions only (called per request): chat.routes.ts mounts this router, so its module may still be loading here.
import { chatMessageIdSchema, chatRoomParamsSchema } from './chat-params';
import { chatDepsOf, http, type ChatRouteDeps } from './chat.routes';

// ---- schemas (built from @tickerbell/jobs/chat/shapes) -----------------------------------------

export const chatReportParamsSchema = z.object({ id: chatMessageIdSchema });
export const chatReportBodySchema = z
  .object({ reason: z.string().trim().min(1, 'why the message breaks the rules').max(CHAT_REASON_MAX, `at most ${CHAT_REASON_MAX} characters`) })
  .strict();

export const chatReportsQuerySchema = z.object({ status: z.enum(['open', 'resolved', 'dismissed']).optional() }).strict();
export const chatAuditQuerySchema = z
  .object({
    cursor: z.string().regex(/^[1-9]\d{0,9}$/, 'a cursor from nextCursor').optional(),
    /** Only the actions on this member (their escalation history). */
    userId: int4Id.optional(),
  })
  .strict();

const NEEDS: Record<ChatModerationInput['action'], readonly (keyof ChatModerationInput)[]> = {
  delete_message: ['messageId'],
  mute: ['userId', 'minutes', 'rule'],
  unmute: ['userId'],
  ban: ['userId', 'rule'],
  unban: ['userId'],
  dismiss_report: ['reportId'],
  promote: ['userId'],
  demote: ['userId'],
  transfer_ownership: ['userId'],
};

/**
 * One moderation action (ChatModerationInput). What each action needs: delete_message a messageId;
 * mute a userId, minutes (1..CHAT_MUTE_MAX_MINUTES) and the rule broken; ban a userId and the rule
 * (minutes up to CHAT_SANCTION_MAX_MINUTES, or none: permanent); unmute and unban a userId;
 * dismiss_report a reportId; promote and demote (the owner only) a userId. A missing field is a 400
 * naming it.
 */
export const chatModerationBodySchema = z
  .object({
    action: z.enum(CHAT_MODERATION_ACTIONS),
    userId: int4Id.optional(),
    messageId: chatMessageIdSchema.optional(),
    reportId: int4Id.optional(),
    rule: z.enum(CHAT_RULES).optional(),
    reason: z.string().trim().max(CHAT_REASON_MAX, `at most ${CHAT_REASON_MAX} characters`).optional(),
    minutes: z.number().int('whole minutes').min(1).max(CHAT_SANCTION_MAX_MINUTES).optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    for (const field of NEEDS[body.action] ?? []) {
      if (body[field] === undefined) ctx.addIssue({ code: 'custom', path: [field], message: `required for ${body.action}` });
    }
    if (body.action === 'mute' && body.minutes !== undefined && body.minutes > CHAT_MUTE_MAX_MINUTES) {
      ctx.addIssue({ code: 'custom', path: ['minutes'], message: `a mute lasts at most ${CHAT_MUTE_MAX_MINUTES} minutes` });
    }
  });

export const chatBlockBodySchema = z.object({ userId: int4Id }).strict();
export const chatBlockParamsSchema = z.object({ userId: pathIdSchema });

// ---- routes ------------------------------------------------------------------------------------

/**
 * Moderation and abuse: reports, the moderators' actions and audit log, blocks. Mounted by
 * chatRoutes. Room routes check the caller is the room's owner or a moderator first (403
 * not_moderator, 404 unknown_room), then read the body.
 */
export function chatModerationRoutes(deps: ChatRouteDeps): Router {
  const router = Router();
  const chat = chatDepsOf(deps);
  const db = deps.dataSource;
  const roomIdOf = (req: Request) => Number(chatRoomParamsSchema.parse(req.params).id);

  router.post('/chat/messages/:id/report', requireUser, async (req, res) => {
    const { id } = chatReportParamsSchema.parse(req.params);
    const { reason } = chatReportBodySchema.parse(req.body);
    const context = chat();
    res.status(201).json(await http(() => reportMessage(db, sessionUser(req).id, id, reason, context.now, context)));
  });

  router.get('/chat/rooms/:id/reports', requireUser, async (req, res) => {
    const roomId = roomIdOf(req);
    const query = chatReportsQuerySchema.parse(req.query);
    const userId = sessionUser(req).id;
    await http(() => requireModerator(db, userId, roomId, chat().now));
    res.set('Cache-Control', 'no-store').json({ reports: await listReports(db, roomId, query.status ?? 'open', userId) });
  });

  router.post('/chat/rooms/:id/moderation', requireUser, async (req, res) => {
    const roomId = roomIdOf(req);
    const userId = sessionUser(req).id;
    const context = chat();
    await http(() => requireModerator(db, userId, roomId, context.now));
    const input: ChatModerationInput = chatModerationBodySchema.parse(req.body);
    res.status(201).json(await http(() => moderate(db, context, userId, roomId, input)));
  });

  router.get('/chat/rooms/:id/audit', requireUser, async (req, res) => {
    const roomId = roomIdOf(req);
    const query = chatAuditQuerySchema.parse(req.query);
    await http(() => requireModerator(db, sessionUser(req).id, roomId, chat().now));
    res.set('Cache-Control', 'no-store').json(await http(() => auditLog(db, roomId, { cursor: query.cursor, userId: query.userId })));
  });

  router.get('/chat/blocks', requireUser, async (req, res) => {
    res.set('Cache-Control', 'no-store').json(await listBlocks(db, sessionUser(req).id));
  });

  router.post('/chat/blocks', requireUser, async (req, res) => {
    const { userId } = chatBlockBodySchema.parse(req.body);
    const context = chat();
    res.status(201).json(await http(() => blockUser(db, sessionUser(req).id, userId, context.now, context)));
  });

  router.delete('/chat/blocks/:userId', requireUser, async (req, res) => {
    const { userId } = chatBlockParamsSchema.parse(req.params);
    await unblockUser(db, sessionUser(req).id, Number(userId), chat());
    res.status(204).end();
  });

  return router;
}

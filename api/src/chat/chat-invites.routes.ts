import { Router } from 'express';
import { z } from 'zod';
import { acceptInvite, createInvite, listInvites, previewInvite, revokeInvite } from '@tickerbell/jobs/chat';
import { CHAT_INVITE_MAX_HOURS, CHAT_INVITE_MAX_USES, type ChatInviteInput } from '@tickerbell/jobs/chat/shapes';
import { requireUser, sessionUser } from '../accounts/require-user';
import { pathIdSchema } from '../http/input';
import { chatRoomParamsSchema } from './chat-params';
// Functions only (called per request): chat.routes.ts mounts this router, so its module may still be loading here.
import { chatDepsOf, http, type ChatRouteDeps } from './chat.routes';

// ---- schemas (built from @tickerbell/jobs/chat/shapes) -----------------------------------------

export const chatInviteParamsSchema = z.object({ id: pathIdSchema, inviteId: pathIdSchema });
/** An invite code as the links carry it: base64url, 16..64 characters (the codes made are 22). */
export const chatInviteCodeParamsSchema = z.object({
  code: z.string().regex(/^[A-Za-z0-9_-]{16,64}$/, 'an invite code (16 to 64 letters, digits, - and _)'),
});

/** POST /api/chat/rooms/:id/invites (ChatInviteInput): hours until it expires (default 168), uses (default none). */
export const chatInviteBodySchema = z
  .object({
    expiresInHours: z.number().int('whole hours').min(1).max(CHAT_INVITE_MAX_HOURS, `at most ${CHAT_INVITE_MAX_HOURS} hours`).optional(),
    maxUses: z.number().int('a whole number').min(1).max(CHAT_INVITE_MAX_USES, `at most ${CHAT_INVITE_MAX_USES}`).nullable().optional(),
  })
  .strict();

// ---- routes ------------------------------------------------------------------------------------

/**
 * Invite links to private rooms: made, listed and revoked by the room's owner and moderators (403
 * not_moderator; 409 not_private for a public room); previewed and accepted by anyone signed in
 * with the link (404 unknown_invite, one answer for unknown, expired, revoked and used up; 403
 * banned). Mounted by chatRoutes.
 */
export function chatInvitesRoutes(deps: ChatRouteDeps): Router {
  const router = Router();
  const chat = chatDepsOf(deps);
  const db = deps.dataSource;

  router.post('/chat/rooms/:id/invites', requireUser, async (req, res) => {
    const roomId = Number(chatRoomParamsSchema.parse(req.params).id);
    const body: ChatInviteInput = chatInviteBodySchema.parse(req.body);
    res.status(201).json(await http(() => createInvite(chat(), sessionUser(req).id, roomId, body)));
  });

  router.get('/chat/rooms/:id/invites', requireUser, async (req, res) => {
    const roomId = Number(chatRoomParamsSchema.parse(req.params).id);
    res.set('Cache-Control', 'no-store').json(await http(() => listInvites(db, sessionUser(req).id, roomId, chat().now)));
  });

  router.delete('/chat/rooms/:id/invites/:inviteId', requireUser, async (req, res) => {
    const params = chatInviteParamsSchema.parse(req.params);
    await http(() => revokeInvite(db, sessionUser(req).id, Number(params.id), Number(params.inviteId), chat().now));
    res.status(204).end();
  });

  router.get('/chat/invites/:code', requireUser, async (req, res) => {
    const { code } = chatInviteCodeParamsSchema.parse(req.params);
    res.set('Cache-Control', 'no-store').json(await http(() => previewInvite(db, sessionUser(req).id, code, chat().now)));
  });

  router.post('/chat/invites/:code/accept', requireUser, async (req, res) => {
    const { code } = chatInviteCodeParamsSchema.parse(req.params);
    res.json(await http(() => acceptInvite(chat(), sessionUser(req).id, code)));
  });

  return router;
}

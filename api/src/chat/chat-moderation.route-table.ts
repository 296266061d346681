import type { RouteInput } from '../http/route-table';
import {
  chatAuditQuerySchema,
  chatBlockBodySchema,
  chatBlockParamsSchema,
  chatModerationBodySchema,
  chatReportBodySchema,
  chatReportParamsSchema,
  chatReportsQuerySchema,
} from './chat-moderation.routes';
import { chatRoomParamsSchema } from './chat-params';

// Moderation and abuse routes, spread into chatRouteTable (chat.route-table.ts). A room id names a
// room ('chat-room': the moderation routes answer its owner and moderators only); a message id a
// message of a room the caller may read ('chat-message'). User ids (the member acted on, the user
// blocked) and report ids are checked against the room by the store: 'reference'.
export const chatModerationRouteEntries: RouteInput[] = [
  {
    method: 'POST',
    path: '/api/chat/messages/:id/report',
    summary: "Reports a message to the room's moderators with a reason (once per message: 409 already_reported; not one's own or a deleted message)",
    auth: 'user',
    params: chatReportParamsSchema,
    ids: { id: 'chat-message' },
    body: { json: chatReportBodySchema },
    response: 'json',
    example: { params: { id: '1' }, body: { reason: 'Pump-and-dump invitation' } },
  },
  {
    method: 'GET',
    path: '/api/chat/rooms/:id/reports',
    summary: "The room's reports of one status (open by default, resolved, dismissed), newest first, with the message reported: owner and moderators only",
    auth: 'user',
    params: chatRoomParamsSchema,
    ids: { id: 'chat-room' },
    query: chatReportsQuerySchema,
    body: 'none',
    response: 'json',
    example: { params: { id: '1' }, query: { status: 'open' } },
  },
  {
    method: 'POST',
    path: '/api/chat/rooms/:id/moderation',
    summary:
      "A moderation action, written with its audit row: delete_message, mute (minutes, rule), unmute, ban (rule, minutes or permanent), unban, dismiss_report, and for the owner only promote / demote (a member to moderator and back; 403 not_owner); a moderator cannot act on the owner or another moderator (403 cannot_target)",
    auth: 'user',
    params: chatRoomParamsSchema,
    ids: { id: 'chat-room', userId: 'reference', reportId: 'reference' },
    body: { json: chatModerationBodySchema },
    response: 'json',
    example: { params: { id: '1' }, body: { action: 'mute', userId: 2, minutes: 60, rule: 'spam', reason: 'Repeated referral links' } },
  },
  {
    method: 'GET',
    path: '/api/chat/rooms/:id/audit',
    summary: "The room's moderation audit log, newest first, 50 a page (cursor); userId keeps one member's history (escalation): owner and moderators only",
    auth: 'user',
    params: chatRoomParamsSchema,
    ids: { id: 'chat-room' },
    query: chatAuditQuerySchema,
    body: 'none',
    response: 'json',
    example: { params: { id: '1' }, query: { userId: '2' } },
  },
  { method: 'GET', path: '/api/chat/blocks', summary: 'The users the caller blocked (their messages are hidden for the caller), newest first', auth: 'user', body: 'none', response: 'json' },
  {
    method: 'POST',
    path: '/api/chat/blocks',
    summary: "Blocks a user: their messages are hidden from the caller's history, threads and mentions (blocking twice keeps the first)",
    auth: 'user',
    body: { json: chatBlockBodySchema },
    ids: { userId: 'reference' },
    response: 'json',
    example: { body: { userId: 2 } },
  },
  {
    method: 'DELETE',
    path: '/api/chat/blocks/:userId',
    summary: 'Unblocks a user (nothing to do when they were not blocked)',
    auth: 'user',
    params: chatBlockParamsSchema,
    ids: { userId: 'reference' },
    body: 'none',
    response: 'empty',
    example: { params: { userId: '2' } },
  },
];

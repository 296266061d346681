import type { RouteInput } from '../http/route-table';
import { chatInviteBodySchema, chatInviteCodeParamsSchema, chatInviteParamsSchema } from './chat-invites.routes';
import { chatRoomParamsSchema } from './chat-params';

// Invite links to private rooms, spread into chatRouteTable (chat.route-table.ts). A room id names
// a room ('chat-room': these routes answer its owner and moderators only), an invite id one of its
// invites ('chat-invite'); an invite code is itself the authority ('capability': whoever has the
// link may preview and accept it).
const EXAMPLE_CODE = 'Jx3n0Qd5T1mYb8cVw2ZrAg';

export const chatInvitesRouteEntries: RouteInput[] = [
  {
    method: 'POST',
    path: '/api/chat/rooms/:id/invites',
    summary:
      'Makes an invite link to a private room (owner and moderators; 409 not_private for a public room): valid expiresInHours (1..720, default 168) and maxUses times (1..1,000, default no limit); the answer is the only time the code is shown',
    auth: 'user',
    params: chatRoomParamsSchema,
    ids: { id: 'chat-room' },
    body: { json: chatInviteBodySchema },
    response: 'json',
    example: { params: { id: '1' }, body: { expiresInHours: 24, maxUses: 10 } },
  },
  {
    method: 'GET',
    path: '/api/chat/rooms/:id/invites',
    summary: "The room's invite links, newest first, without their codes: who made each, expiry, uses, revoked, active (owner and moderators)",
    auth: 'user',
    params: chatRoomParamsSchema,
    ids: { id: 'chat-room' },
    body: 'none',
    response: 'json',
  },
  {
    method: 'DELETE',
    path: '/api/chat/rooms/:id/invites/:inviteId',
    summary: 'Revokes an invite link of the room (owner and moderators; revoking twice keeps the first time)',
    auth: 'user',
    params: chatInviteParamsSchema,
    ids: { id: 'chat-room', inviteId: 'chat-invite' },
    body: 'none',
    response: 'empty',
    example: { params: { id: '1', inviteId: '1' } },
  },
  {
    method: 'GET',
    path: '/api/chat/invites/:code',
    summary:
      "What an invite link opens: the room's name, description and members, the link's expiry, whether the caller is a member already (404 unknown_invite when expired, revoked or used up)",
    auth: 'user',
    params: chatInviteCodeParamsSchema,
    ids: { code: 'capability' },
    body: 'none',
    response: 'json',
    example: { params: { code: EXAMPLE_CODE } },
  },
  {
    method: 'POST',
    path: '/api/chat/invites/:code/accept',
    summary: 'Joins the room of an invite link (one use; a member already spends none; 404 unknown_invite, 403 banned)',
    auth: 'user',
    params: chatInviteCodeParamsSchema,
    ids: { code: 'capability' },
    body: 'none',
    response: 'json',
    example: { params: { code: EXAMPLE_CODE } },
  },
];

// The chat domain's refusals. The stores throw ChatError with a code; the api maps each code to an
// HTTP status (api/src/chat/chat.routes.ts, `CHAT_ERROR_STATUS`) and answers `{ error, code, field? }`,
// with `Retry-After` for 'rate_limited' and 'slow_mode'. No HTTP status lives here.

export const CHAT_ERROR_CODES = [
  'unknown_room',
  'not_member',
  'private_room',
  'unknown_message',
  'not_author',
  'wrong_room',
  'message_deleted',
  'empty_message',
  'message_too_long',
  'bad_reaction',
  'not_moderator',
  'rate_limited',
  'slow_mode',
  'muted',
  'banned',
  'links_not_allowed',
  'bad_cursor',
  'cannot_target',
  'unknown_user',
  'already_reported',
  // User-made rooms, invites and roles (issue 18).
  /** A room field out of bounds (name, description, slowModeSeconds): 400 naming it. */
  'bad_room',
  /** Another room has this name (letter case and surrounding spaces aside): 409, field name. */
  'room_name_taken',
  /** Only the room's owner may (change its settings, appoint or remove moderators): 403. */
  'not_owner',
  /** promote of a moderator / demote of a member: nothing to change, 409 naming userId. */
  'role_unchanged',
  /** An invite field out of bounds (expiresInHours, maxUses): 400 naming it. */
  'bad_invite',
  /** Invites are for private rooms (a public room is joined directly): 409. */
  'not_private',
  /** An invite that does not exist, expired, was revoked or is used up (one answer for all): 404. */
  'unknown_invite',
  /** The owner leaving their room: hand it over first (transfer_ownership), 409. */
  'owner_cannot_leave',
  /** The room has CHAT_INVITES_ACTIVE_MAX active invite links: revoke one first, 409. */
  'too_many_invites',
] as const;
export type ChatErrorCode = (typeof CHAT_ERROR_CODES)[number];

export interface ChatErrorOptions {
  /** The request field at fault (body/query/param name), for "400 naming the field". */
  field?: string;
  /** rate_limited / slow_mode: whole seconds until the member may post again (>= 1). */
  retryAfterSeconds?: number;
  /** muted / banned: until when (ISO; null for a permanent ban). */
  until?: string | null;
}

/** A request the chat domain refuses. */
export class ChatError extends Error {
  readonly field?: string;
  readonly retryAfterSeconds?: number;
  readonly until?: string | null;

  constructor(
    readonly code: ChatErrorCode,
    message: string,
    options: ChatErrorOptions = {},
  ) {
    super(message);
    this.name = 'ChatError';
    this.field = options.field;
    this.retryAfterSeconds = options.retryAfterSeconds === undefined ? undefined : Math.max(1, Math.ceil(options.retryAfterSeconds));
    this.until = options.until;
  }
}

export function isChatError(error: unknown): error is ChatError {
  return error instanceof ChatError;
}

/**
 * A write that lost a race with the deletion of its room (or message): PostgreSQL refuses the row
 * whose room or message is gone (a foreign key violation), and the request gets the answer it would
 * have got a moment later, unknown_room or unknown_message (404), never a 500. Null for any other error.
 */
export function vanishedTarget(error: unknown): ChatError | null {
  const driverError = (error as { driverError?: { code?: string; detail?: string } } | null)?.driverError;
  if (driverError?.code !== '23503') return null;
  if (driverError.detail?.includes('table "chat_rooms"')) return new ChatError('unknown_room', 'No such room');
  if (driverError.detail?.includes('table "chat_messages"')) return new ChatError('unknown_message', 'No such message');
  return null;
}

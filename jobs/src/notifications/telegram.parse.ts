import { z } from 'zod';

/**
 * The Bot API answers the Telegram channel reads, checked with zod: only the fields it uses are
 * required, every other field Telegram sends is let through (objects are not strict), as the
 * API adds fields over time. The recorded answer these were checked against is in data/ (README).
 */

/** A chat id: up to 52 significant bits, negative for groups; kept as a decimal string. */
const chatId = z.number().int().safe().transform(String);

export const telegramUserSchema = z.object({
  id: z.number().int(),
  is_bot: z.boolean(),
  first_name: z.string(),
  username: z.string().optional(),
});

export const telegramChatSchema = z.object({
  id: chatId,
  type: z.enum(['private', 'group', 'supergroup', 'channel']),
  title: z.string().optional(),
  username: z.string().optional(),
  first_name: z.string().optional(),
});

export const telegramMessageSchema = z.object({
  message_id: z.number().int(),
  from: telegramUserSchema.optional(),
  chat: telegramChatSchema,
  /** Unix seconds. */
  date: z.number().int(),
  text: z.string().optional(),
});
export type TelegramMessage = z.infer<typeof telegramMessageSchema>;

/** An Update: only `message` is asked for (allowed_updates), others are read and skipped. */
export const telegramUpdateSchema = z.object({
  update_id: z.number().int().nonnegative(),
  message: telegramMessageSchema.optional(),
});
export type TelegramUpdate = z.infer<typeof telegramUpdateSchema>;

/** Why a request failed (ResponseParameters). */
const responseParametersSchema = z.object({
  retry_after: z.number().int().nonnegative().optional(),
  migrate_to_chat_id: z.number().int().safe().optional(),
});

const failureSchema = z.object({
  ok: z.literal(false),
  error_code: z.number().int(),
  description: z.string().default(''),
  parameters: responseParametersSchema.optional(),
});
export type TelegramFailure = z.infer<typeof failureSchema>;

export type TelegramAnswer<T> = { ok: true; result: T } | TelegramFailure;

/** Thrown when an answer is not the Bot API's shape: a retry does not fix it. */
export class TelegramParseError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TelegramParseError';
  }
}

/** Parses a Bot API answer: `{ ok: true, result }` with `result` checked by `result`, or the failure as given. */
export function parseTelegramAnswer<T>(body: unknown, result: z.ZodType<T>): TelegramAnswer<T> {
  if (body && typeof body === 'object' && (body as { ok?: unknown }).ok === false) {
    const failure = failureSchema.safeParse(body);
    if (!failure.success) throw new TelegramParseError(`Bot API error answer without error_code: ${failure.error.issues[0]?.message ?? ''}`);
    return failure.data;
  }
  const parsed = z.object({ ok: z.literal(true), result }).safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new TelegramParseError(`Bot API answer is not the expected shape at ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? ''}`);
  }
  return { ok: true, result: parsed.data.result as T };
}

export const sendMessageResultSchema = telegramMessageSchema;
/** getUpdates: a list of updates; one that does not parse is kept by id only (skipped, never blocks the offset). */
export const getUpdatesResultSchema = z.array(z.unknown()).transform((items) =>
  items.flatMap((item): (TelegramUpdate | { update_id: number; message?: undefined })[] => {
    const update = telegramUpdateSchema.safeParse(item);
    if (update.success) return [update.data];
    const id = (item as { update_id?: unknown } | null)?.update_id;
    return typeof id === 'number' && Number.isInteger(id) && id >= 0 ? [{ update_id: id }] : [];
  }),
);

/**
 * What a linking message says: `/start CODE`, `/start@bot CODE`, or the code alone. Codes are
 * case-insensitive (upper-cased) and at most 64 characters (the deep link's limit). Null: no code
 * (a bare /start, or anything else).
 */
export function linkCodeOf(text: string | undefined): { command: 'start' | null; code: string | null } {
  const trimmed = (text ?? '').trim();
  const start = /^\/start(?:@[A-Za-z0-9_]+)?(?:\s+(\S+))?\s*$/i.exec(trimmed);
  if (start) return { command: 'start', code: start[1] && /^[A-Za-z0-9_-]{1,64}$/.test(start[1]) ? start[1].toUpperCase() : null };
  if (/^[A-Za-z0-9_-]{6,64}$/.test(trimmed)) return { command: null, code: trimmed.toUpperCase() };
  return { command: null, code: null };
}

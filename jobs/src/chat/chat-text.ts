// Pure text rules of chat messages: cashtags, @mentions, reactions, display names. No I/O.
// The link rule (new accounts cannot post links) lives with the limits (chat-limits.ts).
import { CHAT_MESSAGE_MAX, CHAT_REACTION_MAX } from './chat.shapes';
import { ChatError } from './chat.errors';

/** `$BTC`: a dollar sign, 2 to 10 upper-case letters, not inside a word or a longer run ("$5", "US$BTC", "$BTCUSDTXYZW" no). */
const CASHTAG = /(?<![\p{L}\p{N}_$])\$([A-Z]{2,10})(?![\p{L}\p{N}_])/gu;

/** The upper-case symbols of the text's cashtags, in order of first appearance, without duplicates. */
export function extractCashtags(text: string): string[] {
  const seen = new Set<string>();
  for (const match of text.matchAll(CASHTAG)) seen.add(match[1]);
  return [...seen];
}

/** `@handle`: letters, digits, `_`, `.`, `-` (1..50), not after a letter or digit (so e-mail addresses are not mentions). */
const MENTION = /(?<![\p{L}\p{N}_])@([\p{L}\p{N}_.-]{1,50})/gu;

/**
 * A member's handle: their name with every white space removed, lower-cased (case-insensitive
 * match); `user<id>` when they have no name. "Ada Lovelace" is @AdaLovelace (or @adalovelace).
 */
export function chatHandle(user: { id: number; name: string | null }): string {
  const name = (user.name ?? '').replace(/\s+/gu, '');
  return (name || `user${user.id}`).toLowerCase();
}

/** The lower-cased handles the text mentions (trailing dots and dashes dropped: "@ada." is "ada"), without duplicates. */
export function mentionedHandles(text: string): string[] {
  const seen = new Set<string>();
  for (const match of text.matchAll(MENTION)) {
    const handle = match[1].replace(/[.-]+$/u, '').toLowerCase();
    if (handle) seen.add(handle);
  }
  return [...seen];
}

/** The name shown for a user (never the e-mail address). */
export function chatDisplayName(user: { id: number; name: string | null }): string {
  return user.name?.trim() || `User ${user.id}`;
}

/** The text of a message as stored: trimmed, not empty, at most CHAT_MESSAGE_MAX characters (code points). */
export function normalizeMessageText(text: string, field = 'text'): string {
  const trimmed = text.trim();
  if (!trimmed) throw new ChatError('empty_message', 'A message needs some text', { field });
  if ([...trimmed].length > CHAT_MESSAGE_MAX) throw new ChatError('message_too_long', `A message is at most ${CHAT_MESSAGE_MAX} characters`, { field });
  return trimmed;
}

const PICTOGRAPHIC = /\p{Extended_Pictographic}|\p{Regional_Indicator}/u;
/** What may appear in a reaction besides pictographs: joiners, variation selectors, skin tones, keycaps, tag characters. */
const EMOJI_PARTS = /^(?:\p{Extended_Pictographic}|\p{Emoji_Modifier}|\p{Regional_Indicator}|\p{Emoji_Component}|\u200d|\ufe0f|\u20e3|[\u{e0020}-\u{e007f}])+$/u;

/** A reaction: one emoji sequence (Unicode properties), 1..CHAT_REACTION_MAX UTF-16 characters (the column's varchar(10)). */
export function normalizeReaction(reaction: string, field = 'reaction'): string {
  const value = reaction.trim();
  if (!value || value.length > CHAT_REACTION_MAX || !PICTOGRAPHIC.test(value) || !EMOJI_PARTS.test(value)) {
    throw new ChatError('bad_reaction', `A reaction is one emoji of at most ${CHAT_REACTION_MAX} characters`, { field });
  }
  return value;
}

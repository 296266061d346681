// The chat domain's live events: every write publishes a ChatStreamEvent on one Redis channel;
// each api instance's stream hub relays it as SSE `chat` to the open streams of the room's members.
import type Redis from 'ioredis';
import type { ChatStreamEvent } from './chat.shapes';

/**
 * What the relay carries: the clients' events, and one of its own: a user's blocks changed (each api
 * instance reloads whose messages it leaves out of that user's streams; never sent to a client).
 */
export type ChatRelayEvent = ChatStreamEvent | { kind: 'blocks'; userId: number };

const KINDS = new Set(['message', 'edited', 'deleted', 'reactions', 'typing', 'presence', 'read', 'member', 'standing', 'room', 'thread']);

/** The channel every api instance subscribes to. */
export function chatEventsChannel(prefix: string): string {
  return `${prefix}:chat:events`;
}

/** Publishes one event (after the write it describes has committed). */
export async function publishChatEvent(redis: Redis, prefix: string, event: ChatRelayEvent): Promise<void> {
  await redis.publish(chatEventsChannel(prefix), JSON.stringify(event));
}

/** A published event read back; null for anything that is not one (ignored by the relay). */
export function parseChatEvent(text: string): ChatRelayEvent | null {
  try {
    const value: unknown = JSON.parse(text);
    if (!value || typeof value !== 'object') return null;
    const v = value as Record<string, unknown>;
    if (v.kind === 'blocks') return typeof v.userId === 'number' && Number.isInteger(v.userId) ? { kind: 'blocks', userId: v.userId } : null;
    if (typeof v.kind !== 'string' || !KINDS.has(v.kind) || typeof v.roomId !== 'number' || !Number.isInteger(v.roomId)) return null;
    if (v.kind === 'member' && (typeof v.userId !== 'number' || typeof v.joined !== 'boolean')) return null;
    if (v.kind === 'standing' && typeof v.userId !== 'number') return null;
    return value as ChatStreamEvent;
  } catch {
    return null;
  }
}

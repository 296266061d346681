import { ChatError } from '../../src/chat/chat.errors';
import { compareRooms, effectiveNotifyLevel } from '../../src/chat/chat-rooms.store';
import { parseChatEvent } from '../../src/chat/chat-events';
import { chatHandle, extractCashtags, mentionedHandles, normalizeMessageText, normalizeReaction } from '../../src/chat/chat-text';
import type { ChatRoomView } from '../../src/chat/chat.shapes';

/** The chat's pure rules: cashtags, mentions, text and reaction checks, notify levels, room order, event parsing. */
describe('chat text rules (pure)', () => {
  it('reads $CASHTAGS: 2..10 upper-case letters, once each, in order; not prices, words or lower case', () => {
    expect(extractCashtags('$BTC and $ETH, then $BTC again; $SOL!')).toEqual(['BTC', 'ETH', 'SOL']);
    expect(extractCashtags('$5 US$BTC $btc $B $ABCDEFGHIJK a$ETH $ETH_X')).toEqual([]);
    expect(extractCashtags('($DOGE)')).toEqual(['DOGE']);
  });

  it('reads @mentions as lower-cased handles (the name without spaces), not e-mail addresses', () => {
    expect(mentionedHandles('hi @AdaLovelace and @bob. also @Bob, mail ada@example.com')).toEqual(['adalovelace', 'bob']);
    expect(chatHandle({ id: 1, name: 'Ada Lovelace' })).toBe('adalovelace');
    expect(chatHandle({ id: 7, name: null })).toBe('user7');
    expect(chatHandle({ id: 7, name: '  ' })).toBe('user7');
  });

  it('checks text and reactions with the codes the api maps', () => {
    expect(normalizeMessageText('  hi  ')).toBe('hi');
    const codeOf = (run: () => unknown) => {
      try {
        run();
        return null;
      } catch (error) {
        return error instanceof ChatError ? [error.code, error.field] : error;
      }
    };
    expect(codeOf(() => normalizeMessageText(' \n '))).toEqual(['empty_message', 'text']);
    expect(codeOf(() => normalizeMessageText('x'.repeat(2001)))).toEqual(['message_too_long', 'text']);
    expect(normalizeMessageText('😀'.repeat(2000))).toHaveLength(4000);
    for (const ok of ['👍', '🚀', '❤️', '👍🏽', '🇺🇸', '👨‍👩‍👧']) expect(normalizeReaction(ok)).toBe(ok);
    for (const bad of ['', 'a', '+1', '👍a', '<b>', '👍👍👍👍👍👍']) expect(codeOf(() => normalizeReaction(bad))).toEqual(['bad_reaction', 'reaction']);
  });

  it('ends a notify mute at its time and orders rooms unread first, then mentions, then the latest message', () => {
    const now = new Date('2026-11-21T12:00:00Z');
    expect(effectiveNotifyLevel('mute', null, now)).toBe('mute');
    expect(effectiveNotifyLevel('mute', new Date('2026-11-21T13:00:00Z'), now)).toBe('mute');
    expect(effectiveNotifyLevel('mute', new Date('2026-11-21T11:00:00Z'), now)).toBe('all');
    expect(effectiveNotifyLevel('mentions', null, now)).toBe('mentions');
    const room = (name: string, unread: number, mentions: number, lastMessageAt: string | null) => ({ name, unread, mentions, lastMessageAt }) as ChatRoomView;
    const rooms = [room('quiet', 0, 0, '2026-11-21T11:59:00Z'), room('old', 0, 0, null), room('mentioned', 2, 1, '2026-11-20T00:00:00Z'), room('busy', 5, 0, '2026-11-21T11:00:00Z')];
    expect(rooms.sort(compareRooms).map((r) => r.name)).toEqual(['mentioned', 'busy', 'quiet', 'old']);
  });

  it('parses published events and ignores anything else', () => {
    expect(parseChatEvent('{"kind":"typing","roomId":3,"user":{"id":1,"name":"A"}}')).toEqual({ kind: 'typing', roomId: 3, user: { id: 1, name: 'A' } });
    for (const bad of ['nope', '{}', '{"kind":"message","roomId":"3"}', '{"kind":"member","roomId":3}', '{"kind":"other","roomId":3}']) expect(parseChatEvent(bad)).toBeNull();
  });
});

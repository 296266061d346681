import { createHash } from 'node:crypto';
import { ChatError } from '../../src/chat/chat.errors';
import { inviteCodeHash, newInviteCode } from '../../src/chat/chat-invites.store';
import { normalizeRoomDescription, normalizeRoomName, normalizeSlowMode } from '../../src/chat/chat-room-settings.store';

/** The refusal of a rule as [code, field]. */
function refusal(run: () => unknown): [string, string | undefined] {
  try {
    run();
  } catch (error) {
    if (error instanceof ChatError) return [error.code, error.field];
    throw error;
  }
  throw new Error('expected a ChatError');
}

describe("a room's fields (pure)", () => {
  it('names: trimmed, 3..60 characters (code points), one line', () => {
    expect(normalizeRoomName('  Altcoin desk ')).toBe('Altcoin desk');
    expect(normalizeRoomName('🚀🚀🚀')).toBe('🚀🚀🚀');
    expect(normalizeRoomName('é'.repeat(60))).toHaveLength(60);
    for (const bad of ['ab', '   ', '  a  ', 'x'.repeat(61), 'two\nlines', 'tab\there', 'nul\u0000', 42, null]) {
      expect(refusal(() => normalizeRoomName(bad))).toEqual(['bad_room', 'name']);
    }
  });

  it('descriptions: trimmed, at most 280 characters, empty is none, line breaks allowed', () => {
    expect(normalizeRoomDescription('  Small caps\nand listings  ')).toBe('Small caps\nand listings');
    expect(normalizeRoomDescription('   ')).toBeNull();
    expect(normalizeRoomDescription(null)).toBeNull();
    expect(normalizeRoomDescription(undefined)).toBeNull();
    for (const bad of ['d'.repeat(281), 'bell\u0007', 5]) expect(refusal(() => normalizeRoomDescription(bad))).toEqual(['bad_room', 'description']);
  });

  it('slow mode: whole seconds 0..3600, default off', () => {
    expect(normalizeSlowMode(undefined)).toBe(0);
    expect(normalizeSlowMode(3600)).toBe(3600);
    for (const bad of [-1, 3601, 1.5, '10', Number.NaN]) expect(refusal(() => normalizeSlowMode(bad))).toEqual(['bad_room', 'slowModeSeconds']);
  });
});

describe('invite codes (pure)', () => {
  it('are 128 random bits in base64url, stored as their SHA-256 in hex', () => {
    const codes = new Set(Array.from({ length: 100 }, newInviteCode));
    expect(codes.size).toBe(100);
    for (const code of codes) expect(code).toMatch(/^[A-Za-z0-9_-]{22}$/);
    const [code] = codes;
    expect(inviteCodeHash(code)).toBe(createHash('sha256').update(code).digest('hex'));
    expect(inviteCodeHash(code)).toMatch(/^[0-9a-f]{64}$/);
  });
});

import Redis from 'ioredis';
import { createTestDatabase, type TestDatabase } from '@tickerbell/entities/src/testing/test-database';
import { deleteKeysWithPrefix, testQueuePrefix, testRedisUrl } from '../../src/testing/test-redis';
import { defaultChatConfig } from '../../src/chat/chat.config';
import { ChatError } from '../../src/chat/chat.errors';
import { chatEventsChannel } from '../../src/chat/chat-events';
import { assertCanPost, assertCanTyping, containsLink, CHAT_TYPING_POINTS } from '../../src/chat/chat-limits';
import { assertNotBanned, auditLog, listReports, moderate, reportMessage, requireModerator } from '../../src/chat/chat-moderation.store';
import { blockUser, hiddenAuthorIds, listBlocks, unblockUser } from '../../src/chat/chat-blocks.store';
import type { ChatStreamEvent } from '../../src/chat/chat.shapes';
import { deleteAccount } from '../../src/accounts/account-deletion';
import { JobQueues } from '../../src/runtime/job-queues';
import pino from 'pino';

/** The ChatError a promise rejects with, as { code, field, retryAfterSeconds, until } (undefined fields dropped). */
async function refusal(promise: Promise<unknown>): Promise<Record<string, unknown>> {
  try {
    await promise;
  } catch (error) {
    if (!(error instanceof ChatError)) throw error;
    return JSON.parse(JSON.stringify({ code: error.code, field: error.field, retryAfterSeconds: error.retryAfterSeconds, until: error.until }));
  }
  throw new Error('expected a ChatError');
}

describe('containsLink (the new-account link rule)', () => {
  it.each([
    'see https://example.com/x',
    'HTTP://EXAMPLE.COM',
    'go to www.pump-it',
    'join t.me/moonsignals',
    'free airdrop at claim-btc.xyz now',
    'discord.gg/abc',
    'node at 10.0.0.1:8545',
    'tg://resolve?domain=x',
  ])('finds a link in %j', (text) => expect(containsLink(text)).toBe(true));

  it.each(['$BTC to 100k', 'up 1.5% today', 'e.g. this', 'BTC.D is rising', 'mail me at ann@', '@ann.lee thanks', 'v2.0 is out', 'ETH/USDT breaking 3.4k'])(
    'finds none in %j',
    (text) => expect(containsLink(text)).toBe(false),
  );
});

describe('chat moderation (real PostgreSQL and Redis)', () => {
  let db: TestDatabase;
  const prefix = testQueuePrefix();
  const redis = new Redis(testRedisUrl());
  const subscriber = new Redis(testRedisUrl());
  const events: ChatStreamEvent[] = [];
  const config = defaultChatConfig();
  // Every test but the rate limit's posts with a budget it cannot exhaust.
  const loose = { ...config, CHAT_RATE_PER_SECOND: 100, CHAT_RATE_BURST: 100 };
  const NOW = new Date('2031-03-01T12:00:00Z');
  let owner: number, mod: number, mod2: number, ann: number, ben: number, newbie: number;
  let room: number, slowRoom: number, otherRoom: number;

  const limits = (now = NOW) => ({ dataSource: db.dataSource, redis, prefix, config: loose, now });
  const strict = () => ({ dataSource: db.dataSource, redis, prefix, config, now: NOW });
  const modDeps = (now = NOW) => ({ redis, prefix, now });
  const q = <T = Record<string, unknown>>(sql: string, params: unknown[] = []) => db.dataSource.query(sql, params) as Promise<T[]>;
  async function message(roomId: number, userId: number, text = 'hello'): Promise<string> {
    const [row] = await q<{ id: string }>(`INSERT INTO chat_messages (room_id, user_id, message) VALUES ($1, $2, $3) RETURNING id::text`, [roomId, userId, text]);
    return row.id;
  }
  async function waitForEvent(match: (e: ChatStreamEvent) => boolean): Promise<ChatStreamEvent> {
    for (;;) {
      const found = events.find(match);
      if (found) return found;
      await new Promise((resolve) => subscriber.once('message', resolve));
    }
  }

  beforeAll(async () => {
    db = await createTestDatabase();
    const old = new Date(NOW.getTime() - 30 * 86_400_000);
    const users = await q<{ id: number }>(
      `INSERT INTO users (email, name, created_at) VALUES
        ('owner@x.test', 'Olga Owner', $1), ('mod@x.test', 'Mo', $1), ('mod2@x.test', 'Mia', $1),
        ('ann@x.test', 'Ann', $1), ('ben@x.test', NULL, $1), ('new@x.test', 'Newt', $2) RETURNING id`,
      [old, new Date(NOW.getTime() - 10 * 60_000)],
    );
    [owner, mod, mod2, ann, ben, newbie] = users.map((u) => u.id);
    [{ id: room }, { id: slowRoom }, { id: otherRoom }] = await q<{ id: number }>(
      `INSERT INTO chat_rooms (name, slow_mode_seconds) VALUES ('General', 0), ('Slow', 30), ('Other', 0) RETURNING id`,
    );
    for (const r of [room, slowRoom]) {
      await q(
        `INSERT INTO chat_room_members (room_id, user_id, role) VALUES ($1, $2, 'owner'), ($1, $3, 'moderator'), ($1, $4, 'moderator'),
           ($1, $5, 'member'), ($1, $6, 'member'), ($1, $7, 'member')`,
        [r, owner, mod, mod2, ann, ben, newbie],
      );
    }
    await q(`INSERT INTO chat_room_members (room_id, user_id, role) VALUES ($1, $2, 'owner'), ($1, $3, 'member')`, [otherRoom, ben, ann]);
    subscriber.on('message', (_channel, text: string) => events.push(JSON.parse(text) as ChatStreamEvent));
    await subscriber.subscribe(chatEventsChannel(prefix));
  });

  afterAll(async () => {
    subscriber.disconnect();
    redis.disconnect();
    await db.drop();
    await deleteKeysWithPrefix(testRedisUrl(), prefix);
  });

  it('rate limits a member: the burst at once, then 429 with the wait; typing has its own light limit', async () => {
    const post = () => assertCanPost(strict(), { userId: ann, roomId: room, text: 'gm' });
    for (let i = 0; i < config.CHAT_RATE_BURST; i++) await post();
    const refused = await refusal(post());
    expect(refused).toEqual({ code: 'rate_limited', retryAfterSeconds: expect.any(Number) });
    expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
    // Another member's budget is their own.
    await assertCanPost(strict(), { userId: ben, roomId: room, text: 'gm' });

    for (let i = 0; i < CHAT_TYPING_POINTS; i++) await assertCanTyping({ redis, prefix, config }, { userId: ann, roomId: room });
    expect((await refusal(assertCanTyping({ redis, prefix, config }, { userId: ann, roomId: room }))).code).toBe('rate_limited');
  });

  it('slow mode: one message per member per slow_mode_seconds; owners and moderators are exempt', async () => {
    await assertCanPost(limits(), { userId: ben, roomId: slowRoom, text: 'first' });
    const refused = await refusal(assertCanPost(limits(), { userId: ben, roomId: slowRoom, text: 'second' }));
    expect(refused.code).toBe('slow_mode');
    expect(refused.retryAfterSeconds).toBeGreaterThan(25);
    expect(refused.retryAfterSeconds).toBeLessThanOrEqual(30);
    await assertCanPost(limits(), { userId: mod, roomId: slowRoom, text: 'one' });
    await assertCanPost(limits(), { userId: mod, roomId: slowRoom, text: 'two' });
  });

  it('new accounts cannot post links until CHAT_NEW_ACCOUNT_LINK_MINUTES have passed', async () => {
    expect(await refusal(assertCanPost(limits(), { userId: newbie, roomId: room, text: 'claim at airdrop-btc.xyz' }))).toEqual({ code: 'links_not_allowed', field: 'text' });
    await assertCanPost(limits(), { userId: newbie, roomId: room, text: 'no link, $BTC looks strong' });
    const later = new Date(NOW.getTime() + config.CHAT_NEW_ACCOUNT_LINK_MINUTES * 60_000);
    await assertCanPost(limits(later), { userId: newbie, roomId: room, text: 'https://example.com/chart' });
    await assertCanPost(limits(), { userId: mod2, roomId: room, text: 'https://example.com/rules' });
  });

  it('mute and unmute: the muted member cannot post until the end, each action audited', async () => {
    const entry = await moderate(db.dataSource, modDeps(), mod, room, { action: 'mute', userId: newbie, minutes: 60, rule: 'spam', reason: 'Referral links' });
    const until = new Date(NOW.getTime() + 3_600_000).toISOString();
    expect(entry).toMatchObject({ action: 'mute', moderator: { id: mod, name: 'Mo' }, target: { id: newbie, name: 'Newt' }, rule: 'spam', reason: 'Referral links', until });
    const later = new Date(NOW.getTime() + 24 * 3_600_000);
    expect(await refusal(assertCanPost(limits(), { userId: newbie, roomId: room, text: 'hi' }))).toEqual({ code: 'muted', until });
    // The mute ends by itself.
    await assertCanPost(limits(new Date(NOW.getTime() + 3_600_001)), { userId: newbie, roomId: room, text: 'hi again' });

    await moderate(db.dataSource, modDeps(), mod, room, { action: 'mute', userId: newbie, minutes: 600, rule: 'spam' });
    const unmuted = await moderate(db.dataSource, modDeps(later), mod2, room, { action: 'unmute', userId: newbie });
    expect(unmuted).toMatchObject({ action: 'unmute', moderator: { id: mod2 }, target: { id: newbie }, until: null });
    await assertCanPost(limits(), { userId: newbie, roomId: room, text: 'unmuted now' });

    // The member's history (escalation): newest first, only theirs.
    const history = await auditLog(db.dataSource, room, { userId: newbie });
    expect(history.entries.map((e) => e.action)).toEqual(['unmute', 'mute', 'mute']);
  });

  it('ban (permanent, citing the rule) and unban: a banned member cannot read or post; the relay is told', async () => {
    const entry = await moderate(db.dataSource, modDeps(), owner, room, { action: 'ban', userId: ben, rule: 'scam', reason: 'Fake giveaway' });
    expect(entry).toMatchObject({ action: 'ban', target: { id: ben, name: `User ${ben}` }, rule: 'scam', until: 'infinity' });
    expect(await refusal(assertCanPost(limits(), { userId: ben, roomId: room, text: 'hi' }))).toEqual({ code: 'banned', until: null });
    expect(await refusal(assertNotBanned(db.dataSource, room, ben, NOW))).toEqual({ code: 'banned', until: null });
    const [member] = await q<{ ban_reason: string }>(`SELECT ban_reason FROM chat_room_members WHERE room_id = $1 AND user_id = $2`, [room, ben]);
    expect(member.ban_reason).toBe('scam: Fake giveaway');
    await waitForEvent((e) => e.kind === 'member' && e.userId === ben && !e.joined);
    // Other rooms are not affected.
    await assertNotBanned(db.dataSource, otherRoom, ben, NOW);

    await moderate(db.dataSource, modDeps(), mod, room, { action: 'unban', userId: ben });
    await assertNotBanned(db.dataSource, room, ben, NOW);
    await waitForEvent((e) => e.kind === 'member' && e.userId === ben && e.joined);

    // A temporary ban ends by itself.
    const temp = await moderate(db.dataSource, modDeps(), mod, room, { action: 'ban', userId: ben, rule: 'harassment', minutes: 30 });
    expect(temp.until).toBe(new Date(NOW.getTime() + 30 * 60_000).toISOString());
    expect((await refusal(assertNotBanned(db.dataSource, room, ben, NOW))).until).toBe(temp.until);
    await assertNotBanned(db.dataSource, room, ben, new Date(NOW.getTime() + 31 * 60_000));
    await moderate(db.dataSource, modDeps(), mod, room, { action: 'unban', userId: ben });
  });

  it('role checks: members cannot moderate; moderators cannot act on the owner, other moderators or themselves; the owner can', async () => {
    expect(await refusal(moderate(db.dataSource, modDeps(), ann, room, { action: 'mute', userId: newbie, minutes: 5, rule: 'spam' }))).toEqual({ code: 'not_moderator' });
    expect(await refusal(requireModerator(db.dataSource, ann, room, NOW))).toEqual({ code: 'not_moderator' });
    expect(await refusal(requireModerator(db.dataSource, ann, 999999, NOW))).toEqual({ code: 'unknown_room' });
    expect(await refusal(moderate(db.dataSource, modDeps(), mod, room, { action: 'ban', userId: owner, rule: 'other' }))).toEqual({ code: 'cannot_target', field: 'userId' });
    expect(await refusal(moderate(db.dataSource, modDeps(), mod, room, { action: 'mute', userId: mod2, minutes: 5, rule: 'other' }))).toEqual({ code: 'cannot_target', field: 'userId' });
    expect(await refusal(moderate(db.dataSource, modDeps(), mod, room, { action: 'mute', userId: mod, minutes: 5, rule: 'other' }))).toEqual({ code: 'cannot_target', field: 'userId' });
    expect(await refusal(moderate(db.dataSource, modDeps(), mod, room, { action: 'mute', userId: 999999, minutes: 5, rule: 'other' }))).toEqual({ code: 'unknown_user', field: 'userId' });
    // The member acted on must have a membership row in the room.
    expect(await refusal(moderate(db.dataSource, modDeps(), ben, otherRoom, { action: 'mute', userId: mod, minutes: 5, rule: 'other' }))).toEqual({ code: 'not_member', field: 'userId' });
    const ownMessage = await message(room, owner, 'house rules');
    expect(await refusal(moderate(db.dataSource, modDeps(), mod, room, { action: 'delete_message', messageId: ownMessage }))).toEqual({ code: 'cannot_target', field: 'messageId' });

    // The owner bans a moderator, who becomes a member and can no longer moderate.
    await moderate(db.dataSource, modDeps(), owner, slowRoom, { action: 'ban', userId: mod2, rule: 'other', minutes: 10 });
    const [row] = await q<{ role: string }>(`SELECT role FROM chat_room_members WHERE room_id = $1 AND user_id = $2`, [slowRoom, mod2]);
    expect(row.role).toBe('member');
    expect((await refusal(requireModerator(db.dataSource, mod2, slowRoom, NOW))).code).toBe('not_moderator');
    // Nothing of a refused action was written.
    const audit = await auditLog(db.dataSource, room, {});
    expect(audit.entries.some((e) => e.target?.id === owner || e.target?.id === mod2)).toBe(false);
  });

  it('reports: once per message, not one own, listed for moderators; delete_message resolves them, dismiss_report closes one', async () => {
    const spam = await message(room, newbie, 'buy $SCAM');
    const other = await message(room, newbie, 'off topic');
    const report = await reportMessage(db.dataSource, ann, spam, 'Pump and dump', NOW);
    expect(report).toEqual({ id: expect.any(Number), status: 'open' });
    expect(await refusal(reportMessage(db.dataSource, ann, spam, 'again', NOW))).toEqual({ code: 'already_reported', field: 'id' });
    expect(await refusal(reportMessage(db.dataSource, newbie, spam, 'mine', NOW))).toEqual({ code: 'cannot_target', field: 'id' });
    expect(await refusal(reportMessage(db.dataSource, ann, '999999999', 'x', NOW))).toEqual({ code: 'unknown_message', field: 'id' });
    await reportMessage(db.dataSource, mod, spam, 'Scam', NOW);
    const dismissed = await reportMessage(db.dataSource, ann, other, 'Meh', NOW);

    const open = await listReports(db.dataSource, room, 'open', mod);
    expect(open.map((r) => [r.message.id, r.reporter.id, r.message.text])).toEqual([
      [other, ann, 'off topic'],
      [spam, mod, 'buy $SCAM'],
      [spam, ann, 'buy $SCAM'],
    ]);

    // Another room's message or report is none of this room's.
    const elsewhere = await message(otherRoom, ann, 'elsewhere');
    expect(await refusal(moderate(db.dataSource, modDeps(), mod, room, { action: 'delete_message', messageId: elsewhere }))).toEqual({ code: 'unknown_message', field: 'messageId' });
    expect(await refusal(moderate(db.dataSource, modDeps(), ben, otherRoom, { action: 'dismiss_report', reportId: dismissed.id }))).toEqual({ code: 'unknown_message', field: 'reportId' });

    const deleted = await moderate(db.dataSource, modDeps(), mod, room, { action: 'delete_message', messageId: spam, rule: 'pump_and_dump' });
    expect(deleted).toMatchObject({ action: 'delete_message', messageId: spam, target: { id: newbie }, rule: 'pump_and_dump' });
    const [gone] = await q<{ deleted_by: string; message: string }>(`SELECT deleted_by, message FROM chat_messages WHERE id = $1`, [spam]);
    expect(gone).toEqual({ deleted_by: 'moderator', message: '' });
    expect(await waitForEvent((e) => e.kind === 'deleted' && e.messageId === spam)).toEqual({ kind: 'deleted', roomId: room, messageId: spam, by: 'moderator' });
    expect(await refusal(moderate(db.dataSource, modDeps(), mod, room, { action: 'delete_message', messageId: spam }))).toEqual({ code: 'message_deleted', field: 'messageId' });
    expect(await refusal(reportMessage(db.dataSource, ben, spam, 'late', NOW))).toEqual({ code: 'message_deleted', field: 'id' });

    const closed = await moderate(db.dataSource, modDeps(), mod2, room, { action: 'dismiss_report', reportId: dismissed.id });
    expect(closed).toMatchObject({ action: 'dismiss_report', messageId: other, target: { id: newbie } });
    expect((await listReports(db.dataSource, room, 'open')).length).toBe(0);
    expect((await listReports(db.dataSource, room, 'resolved')).map((r) => r.message.deleted)).toEqual([true, true]);
    expect((await listReports(db.dataSource, room, 'dismissed')).map((r) => r.id)).toEqual([dismissed.id]);
    const [reportRow] = await q<{ resolved_by: number }>(`SELECT resolved_by FROM chat_reports WHERE id = $1`, [dismissed.id]);
    expect(reportRow.resolved_by).toBe(mod2);
  });

  it('the audit log pages newest first by cursor', async () => {
    const first = await auditLog(db.dataSource, room, { limit: 3 });
    expect(first.entries).toHaveLength(3);
    expect(first.nextCursor).toBe(String(first.entries[2].id));
    const second = await auditLog(db.dataSource, room, { limit: 3, cursor: first.nextCursor! });
    expect(second.entries[0].id).toBeLessThan(first.entries[2].id);
    const all = await auditLog(db.dataSource, room, { limit: 100 });
    expect(all.nextCursor).toBeNull();
    expect(all.entries.map((e) => e.id)).toEqual([...all.entries.map((e) => e.id)].sort((a, b) => b - a));
    expect(new Set(all.entries.map((e) => e.action))).toEqual(new Set(['mute', 'unmute', 'ban', 'unban', 'delete_message', 'dismiss_report']));
    expect(await refusal(auditLog(db.dataSource, room, { cursor: 'x1' }))).toEqual({ code: 'bad_cursor', field: 'cursor' });
  });

  it('blocks: hidden authors for the blocker only, idempotent, listed, undone', async () => {
    expect(await refusal(blockUser(db.dataSource, ann, ann))).toEqual({ code: 'cannot_target', field: 'userId' });
    expect(await refusal(blockUser(db.dataSource, ann, 999999))).toEqual({ code: 'unknown_user', field: 'userId' });
    const blocked = await blockUser(db.dataSource, ann, newbie, NOW);
    expect(blocked).toEqual({ user: { id: newbie, name: 'Newt' }, createdAt: NOW.toISOString() });
    expect(await blockUser(db.dataSource, ann, newbie, new Date(NOW.getTime() + 1000))).toEqual(blocked);
    await blockUser(db.dataSource, ann, ben, new Date(NOW.getTime() + 2000));
    expect(await hiddenAuthorIds(db.dataSource, ann)).toEqual(new Set([newbie, ben]));
    expect(await hiddenAuthorIds(db.dataSource, newbie)).toEqual(new Set());
    expect((await listBlocks(db.dataSource, ann)).blocks.map((b) => b.user.id)).toEqual([ben, newbie]);
    await unblockUser(db.dataSource, ann, ben);
    await unblockUser(db.dataSource, ann, ben);
    expect(await hiddenAuthorIds(db.dataSource, ann)).toEqual(new Set([newbie]));
  });

  it("hands an owner's rooms over when they delete their account: to the longest-standing moderator, else member (not banned, not deleted), audited; a room of their own with no one else goes", async () => {
    const at = (minutesAgo: number) => new Date(NOW.getTime() - minutesAgo * 60_000);
    const roleOf = async (roomId: number, userId: number) =>
      (await q<{ role: string }>('SELECT role FROM chat_room_members WHERE room_id = $1 AND user_id = $2', [roomId, userId]))[0]?.role ?? null;
    const [owner, oldMember, lateMod, bannedEarly, gone, solo] = (
      await q<{ id: number }>(
        `INSERT INTO users (email, name) VALUES ('o@x.test', 'Olga'), ('m@x.test', 'Max'), ('d@x.test', 'Dee'), ('b@x.test', 'Bo'), ('g@x.test', 'Gus'), ('s@x.test', 'Sol') RETURNING id`,
      )
    ).map((u) => u.id);
    await q(`UPDATE users SET deleted_at = $2 WHERE id = $1`, [gone, at(5)]);
    const [withMod, membersOnly, bannedOnly, empty, notOwned] = (
      await q<{ id: number }>(
        `INSERT INTO chat_rooms (name, created_by) VALUES ('With a moderator', $1), ('Members only', $1), ('Banned only', $1), ('Just me', $1), ('Someone else''s', $2) RETURNING id`,
        [owner, solo],
      )
    ).map((r) => r.id);
    const member = (roomId: number, userId: number, role: string, joinedMinutesAgo: number, bannedUntil: Date | null = null) =>
      q(`INSERT INTO chat_room_members (room_id, user_id, role, joined_at, banned_until) VALUES ($1, $2, $3, $4, $5)`, [roomId, userId, role, at(joinedMinutesAgo), bannedUntil]);
    // A moderator comes before a member who joined earlier.
    await member(withMod, owner, 'owner', 100);
    await member(withMod, oldMember, 'member', 90);
    await member(withMod, lateMod, 'moderator', 10);
    // Members only: the earliest joined who is neither banned nor a deleted account.
    await member(membersOnly, owner, 'owner', 100);
    await member(membersOnly, gone, 'member', 99);
    await member(membersOnly, bannedEarly, 'member', 98, new Date(NOW.getTime() + 86_400_000));
    await member(membersOnly, oldMember, 'member', 50);
    await member(membersOnly, lateMod, 'member', 20);
    await member(bannedOnly, owner, 'owner', 100);
    await member(bannedOnly, bannedEarly, 'member', 50, new Date('9999-01-01T00:00:00Z'));
    await member(empty, owner, 'owner', 100);
    await q(`INSERT INTO chat_messages (room_id, user_id, message) VALUES ($1, $2, 'talking to myself')`, [empty, owner]);
    await member(notOwned, solo, 'owner', 100);
    await member(notOwned, owner, 'member', 50);

    const seen = events.length;
    const queues = new JobQueues(redis, prefix);
    const deleted = await deleteAccount({ dataSource: db.dataSource, queues, logger: pino({ level: 'silent' }) }, owner, NOW, null);

    expect(deleted.chatRooms).toEqual({
      handedOver: [
        { roomId: withMod, ownerId: lateMod },
        { roomId: membersOnly, ownerId: oldMember },
      ],
      deleted: [empty],
    });
    expect(await roleOf(withMod, lateMod)).toBe('owner');
    expect(await roleOf(withMod, oldMember)).toBe('member');
    expect(await roleOf(membersOnly, oldMember)).toBe('owner');
    expect(await roleOf(membersOnly, bannedEarly)).toBe('member');
    // The deleted account's memberships are gone; a room whose only other member is banned keeps none.
    expect(await q('SELECT room_id FROM chat_room_members WHERE user_id = $1', [owner])).toEqual([]);
    expect(await q(`SELECT user_id, role FROM chat_room_members WHERE room_id = $1`, [bannedOnly])).toEqual([{ user_id: bannedEarly, role: 'member' }]);
    expect(await q('SELECT id FROM chat_rooms WHERE id = $1', [empty])).toEqual([]);
    expect(await q('SELECT id FROM chat_messages WHERE room_id = $1', [empty])).toEqual([]);
    expect(await roleOf(notOwned, solo)).toBe('owner');
    // The audit log says why, in each room handed over.
    const audit = await auditLog(db.dataSource, withMod, {});
    expect(audit.entries).toMatchObject([{ action: 'transfer_ownership', moderator: { id: owner }, target: { id: lateMod, name: 'Dee' }, reason: 'The owner deleted their account' }]);
    expect((await auditLog(db.dataSource, membersOnly, {})).entries).toMatchObject([{ action: 'transfer_ownership', target: { id: oldMember } }]);
    // Each new owner's pages are told (a `standing` event, as when an owner hands a room over).
    await waitForEvent((e) => e.kind === 'standing' && e.roomId === membersOnly);
    expect(events.slice(seen).filter((e) => e.kind === 'standing' && [withMod, membersOnly, bannedOnly, empty, notOwned].includes(e.roomId))).toEqual([
      { kind: 'standing', roomId: withMod, userId: lateMod },
      { kind: 'standing', roomId: membersOnly, userId: oldMember },
    ]);
  });
});

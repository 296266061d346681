import request from 'supertest';
import type { ChatAuditEntry, ChatMembersPage, ChatMessagesPage, ChatReportView } from '@tickerbell/jobs/chat/shapes';
import { AccountsHarness, csrfOf, signedInUser, type Agent } from '../support/accounts-harness';

interface User {
  agent: Agent;
  id: number;
  csrf: string;
}

/** Moderation and abuse through the real app (sessions, CSRF, PostgreSQL, Redis): limits, sanctions, reports, audit, blocks. */
describe('chat moderation api (real app, signed-in users)', () => {
  const harness = new AccountsHarness();
  let owner: User, mod: User, ann: User, ben: User, rita: User;
  let room: number, slowRoom: number;

  async function user(app: ReturnType<AccountsHarness['app']>, email: string, name: string): Promise<User> {
    const agent = request.agent(app);
    const id = await signedInUser(harness, agent, email, name);
    return { agent, id, csrf: await csrfOf(agent) };
  }
  const post = (who: User, path: string, body: object = {}) => who.agent.post(path).set('x-csrf-token', who.csrf).send(body);
  const say = (who: User, roomId: number, text: string) => post(who, `/api/chat/rooms/${roomId}/messages`, { text });
  const act = (who: User, body: object, roomId = room) => post(who, `/api/chat/rooms/${roomId}/moderation`, body);
  const fieldOf = (res: request.Response) => (res.body.error.details as { field?: string }[])[0]?.field;

  beforeAll(async () => {
    await harness.start();
    // Everyone's budget is generous here, but rita's: she signs in on an app with the default limits.
    const loose = harness.app({ CHAT_RATE_PER_SECOND: '100', CHAT_RATE_BURST: '100' });
    [owner, mod, ann, ben] = await Promise.all([
      user(loose, 'olga-chat@example.com', 'Olga'),
      user(loose, 'mo-chat@example.com', 'Mo'),
      user(loose, 'ann-chat@example.com', 'Ann'),
      user(loose, 'ben-chat@example.com', 'Ben'),
    ]);
    rita = await user(harness.app(), 'rita-chat@example.com', 'Rita');
    const db = harness.db.dataSource;
    // Accounts older than the link rule's hour, but ann's (new accounts cannot post links).
    await db.query(`UPDATE users SET created_at = now() - interval '30 days' WHERE id <> $1`, [ann.id]);
    [{ id: room }, { id: slowRoom }] = await db.query(`INSERT INTO chat_rooms (name, slow_mode_seconds) VALUES ('Mods test', 0), ('Slow test', 30) RETURNING id`);
    for (const r of [room, slowRoom]) {
      await db.query(
        `INSERT INTO chat_room_members (room_id, user_id, role) VALUES ($1, $2, 'owner'), ($1, $3, 'moderator'), ($1, $4, 'member'), ($1, $5, 'member'), ($1, $6, 'member')`,
        [r, owner.id, mod.id, ann.id, ben.id, rita.id],
      );
    }
  }, 60_000);

  afterAll(() => harness.stop());

  it('refuses signed-out callers and bad input naming the field', async () => {
    const anonymous = request.agent(harness.app());
    expect((await anonymous.get('/api/chat/blocks')).status).toBe(401);
    expect((await anonymous.get(`/api/chat/rooms/${room}/audit`)).status).toBe(401);
    const bad = await Promise.all([
      act(mod, { action: 'mute', userId: ben.id, rule: 'spam' }),
      act(mod, { action: 'ban', userId: ben.id }),
      act(mod, { action: 'mute', userId: ben.id, rule: 'spam', minutes: 43_201 }),
      act(mod, { action: 'kick', userId: ben.id }),
      act(mod, { action: 'delete_message' }),
      act(mod, { action: 'dismiss_report', reportId: 'x' }),
      post(ann, '/api/chat/messages/1/report', { reason: '   ' }),
      post(ann, '/api/chat/blocks', { userId: 0 }),
      post(ann, '/api/chat/messages/undefined/report', { reason: 'x' }),
      post(ann, '/api/chat/messages/99999999999999999999/report', { reason: 'x' }),
    ]);
    expect(bad.map((r) => [r.status, fieldOf(r)])).toEqual([
      [400, 'minutes'],
      [400, 'rule'],
      [400, 'minutes'],
      [400, 'action'],
      [400, 'messageId'],
      [400, 'reportId'],
      [400, 'reason'],
      [400, 'userId'],
      [400, 'id'],
      [400, 'id'],
    ]);
    expect((await mod.agent.get(`/api/chat/rooms/${room}/audit?cursor=abc`)).status).toBe(400);
  });

  it('role checks: a member cannot moderate or read reports; a moderator cannot ban the owner', async () => {
    const refused = await Promise.all([
      act(ann, { action: 'mute', userId: ben.id, minutes: 5, rule: 'spam' }),
      ann.agent.get(`/api/chat/rooms/${room}/reports`),
      ann.agent.get(`/api/chat/rooms/${room}/audit`),
      act(mod, { action: 'ban', userId: owner.id, rule: 'other' }),
      act(mod, { action: 'mute', userId: ben.id, minutes: 5, rule: 'spam' }, 999_999),
    ]);
    expect(refused.map((r) => [r.status, r.body.error.code])).toEqual([
      [403, 'not_moderator'],
      [403, 'not_moderator'],
      [403, 'not_moderator'],
      [403, 'cannot_target'],
      [404, 'unknown_room'],
    ]);
    expect((await mod.agent.get(`/api/chat/rooms/${room}/audit`)).body.entries).toEqual([]);
  });

  it('rate limit: the burst passes, then 429 with Retry-After', async () => {
    for (let i = 0; i < 3; i++) expect((await say(rita, room, `gm ${i}`)).status).toBe(201);
    const limited = await say(rita, room, 'one too many');
    expect([limited.status, limited.body.error.code]).toEqual([429, 'rate_limited']);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThanOrEqual(1);
  });

  it('slow mode: a second message within slow_mode_seconds is a 429 with the wait; moderators are exempt', async () => {
    expect((await say(ben, slowRoom, 'first')).status).toBe(201);
    const slowed = await say(ben, slowRoom, 'second');
    expect([slowed.status, slowed.body.error.code]).toEqual([429, 'slow_mode']);
    expect(Number(slowed.headers['retry-after'])).toBeGreaterThan(25);
    expect((await say(mod, slowRoom, 'mods one')).status).toBe(201);
    expect((await say(mod, slowRoom, 'mods two')).status).toBe(201);
  });

  it('links from new accounts are refused (403 naming text); older accounts post them', async () => {
    const refused = await say(ann, room, 'free coins at claim-btc.xyz');
    expect([refused.status, refused.body.error.code, fieldOf(refused)]).toEqual([403, 'links_not_allowed', 'text']);
    expect((await say(ann, room, 'no links here, $BTC')).status).toBe(201);
    expect((await say(ben, room, 'chart: https://example.com/btc')).status).toBe(201);
  });

  it('reports, delete, mute, unmute, ban, unban, dismiss: each refused or applied, each in the audit log', async () => {
    const spam = (await say(ben, room, 'pump $XYZ now')).body.message.id as string;
    const other = (await say(ben, room, 'off topic')).body.message.id as string;
    expect((await post(ann, `/api/chat/messages/${spam}/report`, { reason: 'Pump and dump' })).status).toBe(201);
    const again = await post(ann, `/api/chat/messages/${spam}/report`, { reason: 'again' });
    expect([again.status, again.body.error.code]).toEqual([409, 'already_reported']);
    const report = (await post(ann, `/api/chat/messages/${other}/report`, { reason: 'Off topic' })).body as { id: number };
    const open = (await mod.agent.get(`/api/chat/rooms/${room}/reports`).expect(200)).body.reports as ChatReportView[];
    expect(open.map((r) => [r.message.id, r.message.text, r.reporter.id, r.reason])).toEqual([
      [other, 'off topic', ann.id, 'Off topic'],
      [spam, 'pump $XYZ now', ann.id, 'Pump and dump'],
    ]);
    // The room's open reports are counted for its owner and moderators only (the Moderation button's badge).
    const openReports = async (who: User) => (await who.agent.get(`/api/chat/rooms/${room}`).expect(200)).body.openReports as number | null;
    expect([await openReports(owner), await openReports(mod), await openReports(ann)]).toEqual([2, 2, null]);

    const deleted = await act(mod, { action: 'delete_message', messageId: spam, rule: 'pump_and_dump' }).expect(201);
    expect(deleted.body).toMatchObject({ action: 'delete_message', messageId: spam, moderator: { id: mod.id, name: 'Mo' }, target: { id: ben.id, name: 'Ben' } });
    const history = (await ann.agent.get(`/api/chat/rooms/${room}/messages`).expect(200)).body as ChatMessagesPage;
    expect(history.messages.find((m) => m.id === spam)).toMatchObject({ deleted: true, deletedBy: 'moderator', text: '' });
    expect((await mod.agent.get(`/api/chat/rooms/${room}/reports?status=resolved`)).body.reports.map((r: ChatReportView) => r.message.id)).toEqual([spam]);

    await act(mod, { action: 'mute', userId: ben.id, minutes: 10, rule: 'spam', reason: 'Second warning' }).expect(201);
    const muted = await say(ben, room, 'am I muted?');
    expect([muted.status, muted.body.error.code]).toEqual([403, 'muted']);
    expect(muted.body.error.details[0].until).toEqual(expect.any(String));
    await act(mod, { action: 'unmute', userId: ben.id }).expect(201);
    expect((await say(ben, room, 'thanks')).status).toBe(201);

    const ban = await act(owner, { action: 'ban', userId: ben.id, rule: 'scam', reason: 'Third strike' }).expect(201);
    expect(ban.body).toMatchObject({ action: 'ban', rule: 'scam', reason: 'Third strike', until: 'infinity' });
    expect((await ben.agent.get(`/api/chat/rooms/${room}/messages`)).body.error.code).toBe('banned');
    const banned = await say(ben, room, 'let me in');
    expect([banned.status, banned.body.error.code]).toEqual([403, 'banned']);
    await act(mod, { action: 'unban', userId: ben.id }).expect(201);
    expect((await ben.agent.get(`/api/chat/rooms/${room}/messages`)).status).toBe(200);

    expect(await openReports(mod)).toBe(1);
    await act(mod, { action: 'dismiss_report', reportId: report.id }).expect(201);
    expect((await mod.agent.get(`/api/chat/rooms/${room}/reports`)).body.reports).toEqual([]);
    expect(await openReports(mod)).toBe(0);

    // The member's history, newest first: what a moderator reads before escalating.
    const audit = (await mod.agent.get(`/api/chat/rooms/${room}/audit?userId=${ben.id}`).expect(200)).body as { entries: ChatAuditEntry[]; nextCursor: string | null };
    expect(audit.entries.map((e) => [e.action, e.moderator.id])).toEqual([
      ['dismiss_report', mod.id],
      ['unban', mod.id],
      ['ban', owner.id],
      ['unmute', mod.id],
      ['mute', mod.id],
      ['delete_message', mod.id],
    ]);
    expect(audit.nextCursor).toBeNull();
  });

  it("blocks: a blocked user's messages are hidden for the blocker only, until unblocked", async () => {
    const hello = (await say(ben, room, 'hello from ben')).body.message.id as string;
    const ids = async (who: User) => ((await who.agent.get(`/api/chat/rooms/${room}/messages`).expect(200)).body as ChatMessagesPage).messages.map((m) => m.id);
    expect(await ids(ann)).toContain(hello);

    const blocked = await post(ann, '/api/chat/blocks', { userId: ben.id }).expect(201);
    expect(blocked.body).toEqual({ user: { id: ben.id, name: 'Ben' }, createdAt: expect.any(String) });
    expect((await post(ann, '/api/chat/blocks', { userId: ben.id })).status).toBe(201);
    expect((await post(ann, '/api/chat/blocks', { userId: ann.id })).body.error.code).toBe('cannot_target');
    expect((await post(ann, '/api/chat/blocks', { userId: 2_000_000_000 })).status).toBe(404);
    expect((await ann.agent.get('/api/chat/blocks').expect(200)).body.blocks.map((b: { user: { id: number } }) => b.user.id)).toEqual([ben.id]);
    expect(await ids(ann)).not.toContain(hello);
    expect(await ids(mod)).toContain(hello);

    await ann.agent.delete(`/api/chat/blocks/${ben.id}`).set('x-csrf-token', ann.csrf).expect(204);
    expect((await ann.agent.get('/api/chat/blocks')).body.blocks).toEqual([]);
    expect(await ids(ann)).toContain(hello);
  });

  it("lists the room's members, owner first, then moderators, then members by name; mutes and bans for its moderators only", async () => {
    await act(mod, { action: 'mute', userId: rita.id, minutes: 5, rule: 'spam' }, slowRoom).expect(201);
    await act(owner, { action: 'ban', userId: ben.id, rule: 'scam', minutes: 60 }, slowRoom).expect(201);
    const members = async (who: User, query = '') => (await who.agent.get(`/api/chat/rooms/${slowRoom}/members${query}`).expect(200)).body as ChatMembersPage;

    const seenByMod = await members(mod);
    expect(seenByMod.members.map((m) => [m.user.name, m.role, m.mutedUntil !== null, m.bannedUntil !== null])).toEqual([
      ['Olga', 'owner', false, false],
      ['Mo', 'moderator', false, false],
      ['Ann', 'member', false, false],
      ['Ben', 'member', false, true],
      ['Rita', 'member', true, false],
    ]);
    expect(seenByMod.nextCursor).toBeNull();
    // A member sees no sanctions, and no banned member.
    const seenByAnn = await members(ann);
    expect(seenByAnn.members.map((m) => m.user.name)).toEqual(['Olga', 'Mo', 'Ann', 'Rita']);
    expect(seenByAnn.members.every((m) => !('mutedUntil' in m) && !('bannedUntil' in m))).toBe(true);
    // Offset pages.
    const first = await members(mod, '?limit=2');
    expect([first.members.map((m) => m.user.name), first.nextCursor]).toEqual([['Olga', 'Mo'], '2']);
    expect((await members(mod, `?limit=2&cursor=${first.nextCursor}`)).members.map((m) => m.user.name)).toEqual(['Ann', 'Ben']);
    // The banned member cannot read them; bad input names the field.
    expect((await ben.agent.get(`/api/chat/rooms/${slowRoom}/members`)).body.error.code).toBe('banned');
    const bad = await mod.agent.get(`/api/chat/rooms/${slowRoom}/members?limit=0`);
    expect([bad.status, fieldOf(bad)]).toEqual([400, 'limit']);
    await act(owner, { action: 'unban', userId: ben.id }, slowRoom).expect(201);
    await act(mod, { action: 'unmute', userId: rita.id }, slowRoom).expect(201);
  });
});

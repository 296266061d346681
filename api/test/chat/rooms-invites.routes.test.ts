import { createHash } from 'node:crypto';
import type http from 'node:http';
import Redis from 'ioredis';
import { chatEventsChannel, parseChatEvent, vanishedTarget } from '@tickerbell/jobs/chat';
import type { ChatAuditEntry, ChatInviteCreatedView, ChatInvitePreview, ChatInvitesResponse, ChatRoomView, ChatStreamEvent } from '@tickerbell/jobs/chat/shapes';
import { testRedisUrl } from '@tickerbell/jobs/testing/test-redis';
import { AccountsHarness } from '../support/accounts-harness';
import { chatUser, closeServer, listen, send, until, type ChatUser } from './chat-support';

/**
 * Rooms made by users, their settings, invite links to private rooms and the owner appointing
 * moderators (issue 18), through the real app (sessions, CSRF, PostgreSQL, Redis). The
 * operator's self-hosted plan allows two rooms per user (BILLING_SELF_HOSTED_LIMITS), so the
 * plan limit is reached in a few requests.
 */
describe('chat rooms, settings, invites and roles (real app)', () => {
  const harness = new AccountsHarness();
  const subscriber = new Redis(testRedisUrl());
  const events: ChatStreamEvent[] = [];
  let server: http.Server;
  let ada: ChatUser, bob: ChatUser, cyd: ChatUser, dan: ChatUser, eve: ChatUser;
  let desk: ChatRoomView;
  let lobby: number;
  const db = () => harness.db.dataSource;
  const codeOf = (res: { body: { error: { code: string } } }) => res.body.error.code;
  const answer = (res: { status: number; body: { error?: { code: string; details?: { field?: string }[] } } }) =>
    res.body.error ? [res.status, res.body.error.code, res.body.error.details?.[0]?.field] : [res.status];
  const count = async (sql: string, params: unknown[] = []) => ((await db().query(sql, params)) as { n: number }[])[0].n;
  const roomsOf = (who: ChatUser) => count(`SELECT count(*)::int AS n FROM chat_rooms WHERE created_by = $1`, [who.id]);
  const create = (who: ChatUser, body: object) => send(who, 'post', '/api/chat/rooms', body);
  const invite = async (who: ChatUser, roomId: number, body: object = {}): Promise<ChatInviteCreatedView> =>
    (await send(who, 'post', `/api/chat/rooms/${roomId}/invites`, body).expect(201)).body as ChatInviteCreatedView;
  const act = (who: ChatUser, roomId: number, body: object) => send(who, 'post', `/api/chat/rooms/${roomId}/moderation`, body);
  /**
   * Two requests that overlap for sure: `table` takes no insert until both wait on a lock (the
   * table's, or whatever the code under test serializes them with), then both go on.
   */
  async function overlapped<T>(table: string, start: () => Promise<T>[]): Promise<T[]> {
    const blocker = db().createQueryRunner();
    await blocker.connect();
    await blocker.startTransaction();
    await blocker.query(`LOCK TABLE ${table} IN SHARE MODE`);
    const requests = Promise.all(start());
    try {
      await until(() => count(`SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'`), (n) => n >= 2);
    } finally {
      await blocker.commitTransaction();
      await blocker.release();
    }
    return requests;
  }
  const roleOf = async (who: ChatUser, roomId: number) => ((await who.agent.get(`/api/chat/rooms/${roomId}`).expect(200)).body as ChatRoomView).membership?.role;

  beforeAll(async () => {
    await harness.start();
    await subscriber.subscribe(chatEventsChannel(harness.prefix));
    subscriber.on('message', (_channel, text: string) => {
      const event = parseChatEvent(text);
      if (event && event.kind !== 'blocks') events.push(event);
    });
    ({ server } = await listen(harness.app({ BILLING_SELF_HOSTED_LIMITS: 'chatRoomsCreated=2' })));
    [ada, bob, cyd, dan, eve] = await Promise.all([
      chatUser(db(), server, 'ada-rooms@example.com', 'Ada'),
      chatUser(db(), server, 'bob-rooms@example.com', 'Bob'),
      chatUser(db(), server, 'cyd-rooms@example.com', 'Cyd'),
      chatUser(db(), server, 'dan-rooms@example.com', 'Dan'),
      chatUser(db(), server, 'eve-rooms@example.com', 'Eve'),
    ]);
    // A seeded public room (no owner).
    [{ id: lobby }] = await db().query(`INSERT INTO chat_rooms (name, type, is_private) VALUES ('Lobby', 'chat', false) RETURNING id`);
  }, 60_000);

  afterAll(async () => {
    subscriber.disconnect();
    await closeServer(server);
    await harness.stop();
  });

  it('creates a room owned by its creator (201, trimmed); bad input is a 400 naming the field, a taken name a 409, and nothing is written', async () => {
    const res = await create(ada, { name: '  Altcoin desk  ', description: '  Small caps\nand new listings ', isPrivate: true, slowModeSeconds: 30 }).expect(201);
    desk = res.body as ChatRoomView;
    expect(desk).toMatchObject({
      name: 'Altcoin desk',
      type: 'chat',
      description: 'Small caps\nand new listings',
      tradingPair: null,
      isPrivate: true,
      slowModeSeconds: 30,
      members: 1,
      membership: { role: 'owner', lastReadMessageId: null },
      unread: 0,
    });
    expect(await db().query(`SELECT created_by, type FROM chat_rooms WHERE id = $1`, [desk.id])).toEqual([{ created_by: ada.id, type: 'chat' }]);
    await until(async () => events, (list) => list.some((e) => e.kind === 'member' && e.roomId === desk.id && e.userId === ada.id && e.joined));
    // Listed for its owner, not for others (private).
    expect(((await ada.agent.get('/api/chat/rooms').expect(200)).body.rooms as ChatRoomView[]).map((r) => r.id)).toContain(desk.id);
    expect(((await bob.agent.get('/api/chat/rooms').expect(200)).body.rooms as ChatRoomView[]).map((r) => r.id)).not.toContain(desk.id);

    const rooms = await count(`SELECT count(*)::int AS n FROM chat_rooms`);
    const bad = await Promise.all([
      create(bob, { name: 'ab' }),
      create(bob, { name: '   ab   ' }),
      create(bob, { name: 'x'.repeat(61) }),
      create(bob, { name: 'two\nlines' }),
      create(bob, { name: 'Fine name', description: 'd'.repeat(281) }),
      create(bob, { name: 'Fine name', slowModeSeconds: 3601 }),
      create(bob, { name: 'Fine name', slowModeSeconds: 1.5 }),
      create(bob, { name: 'Fine name', isPrivate: 'yes' }),
      create(bob, { description: 'no name' }),
      create(bob, { name: 'x'.repeat(5000) }),
      create(bob, { name: 'ALTCOIN DESK' }),
      create(bob, { name: ' altcoin desk ' }),
    ]);
    expect(bad.map(answer)).toEqual([
      [400, 'bad_room', 'name'],
      [400, 'bad_room', 'name'],
      [400, 'bad_room', 'name'],
      [400, 'bad_room', 'name'],
      [400, 'bad_room', 'description'],
      [400, 'validation_failed', 'slowModeSeconds'],
      [400, 'validation_failed', 'slowModeSeconds'],
      [400, 'validation_failed', 'isPrivate'],
      [400, 'validation_failed', 'name'],
      [400, 'validation_failed', 'name'],
      [409, 'room_name_taken', 'name'],
      [409, 'room_name_taken', 'name'],
    ]);
    // A trading-pair room is a curated seed: a user cannot ask for one.
    expect(codeOf(await create(bob, { name: 'ETH/USDT', type: 'trading_pair' }).expect(400))).toBe('validation_failed');
    expect(await count(`SELECT count(*)::int AS n FROM chat_rooms`)).toBe(rooms);
    // A seeded room's name is taken too.
    expect(answer(await create(bob, { name: 'lobby' }))).toEqual([409, 'room_name_taken', 'name']);
  });

  it("the plan's chatRoomsCreated: at the limit − 1, two concurrent creates let exactly one through; the same name at once, one", async () => {
    expect(await roomsOf(ada)).toBe(1);
    const both = await overlapped('chat_rooms', () => [create(ada, { name: 'Desk two' }), create(ada, { name: 'Desk three' })]);
    expect(both.map((r) => r.status).sort()).toEqual([201, 403]);
    const refused = both.find((r) => r.status === 403)!;
    expect(refused.body.error).toMatchObject({ code: 'plan_limit', details: { plan: 'self-hosted', limit: 'chatRoomsCreated', max: 2, used: 2 } });
    expect(await roomsOf(ada)).toBe(2);
    expect(codeOf(await create(ada, { name: 'Desk four' }).expect(403))).toBe('plan_limit');
    expect(await roomsOf(ada)).toBe(2);

    // Two users, one name, at the same time: the rooms lock lets one have it.
    const race = await overlapped('chat_rooms', () => [create(bob, { name: 'Macro corner' }), create(cyd, { name: 'MACRO CORNER' })]);
    expect(race.map((r) => r.status).sort()).toEqual([201, 409]);
    expect(await count(`SELECT count(*)::int AS n FROM chat_rooms WHERE lower(name) = 'macro corner'`)).toBe(1);
  });

  it('updates a room: its owner only, with the same rules', async () => {
    const updated = await send(ada, 'patch', `/api/chat/rooms/${desk.id}`, { name: 'Altcoin Desk', description: '', slowModeSeconds: 0 }).expect(200);
    expect(updated.body).toMatchObject({ id: desk.id, name: 'Altcoin Desk', description: null, slowModeSeconds: 0, membership: { role: 'owner' } });
    await send(ada, 'patch', `/api/chat/rooms/${desk.id}`, { description: 'Small caps' }).expect(200);
    // Each change is published for the members' open pages (a `room` event), a refused one never.
    await until(async () => events, (list) => list.filter((e) => e.kind === 'room' && e.roomId === desk.id).length === 2);
    const [macro] = await db().query(`SELECT name FROM chat_rooms WHERE lower(name) = 'macro corner'`);

    const refused = await Promise.all([
      send(bob, 'patch', `/api/chat/rooms/${desk.id}`, { name: 'Mine now' }),
      send(ada, 'patch', `/api/chat/rooms/${lobby}`, { description: 'mine' }),
      send(ada, 'patch', `/api/chat/rooms/2147483647`, { description: 'x' }),
      send(ada, 'patch', `/api/chat/rooms/${desk.id}`, {}),
      send(ada, 'patch', `/api/chat/rooms/${desk.id}`, { name: 'no' }),
      send(ada, 'patch', `/api/chat/rooms/${desk.id}`, { name: macro.name.toLowerCase() }),
      send(ada, 'patch', `/api/chat/rooms/${desk.id}`, { slowModeSeconds: -1 }),
      send(ada, 'patch', `/api/chat/rooms/${desk.id}`, { isPrivate: 'no' }),
    ]);
    expect(refused.map(answer)).toEqual([
      [403, 'not_owner', undefined],
      [403, 'not_owner', undefined],
      [404, 'unknown_room', undefined],
      [400, 'validation_failed', 'name'],
      [400, 'bad_room', 'name'],
      [409, 'room_name_taken', 'name'],
      [400, 'validation_failed', 'slowModeSeconds'],
      [400, 'validation_failed', 'isPrivate'],
    ]);
    expect(await db().query(`SELECT name, description, slow_mode_seconds, is_private FROM chat_rooms WHERE id = $1`, [desk.id])).toEqual([
      { name: 'Altcoin Desk', description: 'Small caps', slow_mode_seconds: 0, is_private: true },
    ]);
    expect(events.filter((e) => e.kind === 'room' && e.roomId === desk.id)).toHaveLength(2);
  });

  it('invite links: made by the owner (the code shown once, only its hash stored), previewed, accepted once per member, listed, revoked', async () => {
    const before = Date.now();
    const link = await invite(ada, desk.id);
    expect(link).toEqual({ id: expect.any(Number), code: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/), url: `/dashboard/chat/join/${link.code}`, expiresAt: expect.any(String), maxUses: null, uses: 0 });
    expect(Date.parse(link.expiresAt) - before).toBeGreaterThanOrEqual(168 * 3_600_000 - 5000);
    expect(Date.parse(link.expiresAt) - before).toBeLessThanOrEqual(168 * 3_600_000 + 5000);
    const [stored] = await db().query(`SELECT code_hash, created_by, max_uses, uses FROM chat_room_invites WHERE id = $1`, [link.id]);
    expect(stored).toEqual({ code_hash: createHash('sha256').update(link.code).digest('hex'), created_by: ada.id, max_uses: null, uses: 0 });
    expect(await count(`SELECT count(*)::int AS n FROM chat_room_invites i WHERE i::text LIKE '%' || $1 || '%'`, [link.code])).toBe(0);

    // Bob, not a member, cannot read the room but can open the link.
    expect(codeOf(await bob.agent.get(`/api/chat/rooms/${desk.id}`).expect(403))).toBe('private_room');
    const preview = (await bob.agent.get(`/api/chat/invites/${link.code}`).expect(200)).body as ChatInvitePreview;
    expect(preview).toEqual({ room: { id: desk.id, name: 'Altcoin Desk', description: 'Small caps', members: 1 }, expiresAt: link.expiresAt, alreadyMember: false });

    const joined = (await send(bob, 'post', `/api/chat/invites/${link.code}/accept`).expect(200)).body as ChatRoomView;
    expect(joined).toMatchObject({ id: desk.id, members: 2, membership: { role: 'member' } });
    await until(async () => events, (list) => list.some((e) => e.kind === 'member' && e.roomId === desk.id && e.userId === bob.id && e.joined));
    // A member already: the room again, no use spent.
    await send(bob, 'post', `/api/chat/invites/${link.code}/accept`).expect(200);
    expect(((await bob.agent.get(`/api/chat/invites/${link.code}`).expect(200)).body as ChatInvitePreview).alreadyMember).toBe(true);
    const list = (await ada.agent.get(`/api/chat/rooms/${desk.id}/invites`).expect(200)).body as ChatInvitesResponse;
    expect(list.invites).toEqual([
      { id: link.id, createdBy: { id: ada.id, name: 'Ada' }, createdAt: expect.any(String), expiresAt: link.expiresAt, maxUses: null, uses: 1, revokedAt: null, active: true },
    ]);

    // Ada's public room (made by the plan limit's test): joined directly, no invites.
    const [{ id: adaPublic }] = await db().query(`SELECT id FROM chat_rooms WHERE created_by = $1 AND NOT is_private`, [ada.id]);
    const refused = await Promise.all([
      send(bob, 'post', `/api/chat/rooms/${desk.id}/invites`, {}),
      bob.agent.get(`/api/chat/rooms/${desk.id}/invites`),
      send(bob, 'delete', `/api/chat/rooms/${desk.id}/invites/${link.id}`),
      send(ada, 'post', `/api/chat/rooms/${adaPublic}/invites`, {}),
      send(ada, 'post', `/api/chat/rooms/${desk.id}/invites`, { expiresInHours: 721 }),
      send(ada, 'post', `/api/chat/rooms/${desk.id}/invites`, { expiresInHours: 0 }),
      send(ada, 'post', `/api/chat/rooms/${desk.id}/invites`, { maxUses: 0 }),
      send(ada, 'post', `/api/chat/rooms/${desk.id}/invites`, { maxUses: 1001 }),
      send(ada, 'post', `/api/chat/rooms/${desk.id}/invites`, { code: 'mine' }),
      cyd.agent.get('/api/chat/invites/short'),
      cyd.agent.get(`/api/chat/invites/${'a'.repeat(65)}`),
      cyd.agent.get('/api/chat/invites/not%20a%20code%20at%20all'),
      send(cyd, 'post', '/api/chat/invites/short/accept'),
      cyd.agent.get('/api/chat/invites/AAAAAAAAAAAAAAAAAAAAAA'),
      send(cyd, 'post', '/api/chat/invites/AAAAAAAAAAAAAAAAAAAAAA/accept'),
      send(ada, 'delete', `/api/chat/rooms/${desk.id}/invites/2147483647`),
    ]);
    expect(refused.map(answer)).toEqual([
      [403, 'not_moderator', undefined],
      [403, 'not_moderator', undefined],
      [403, 'not_moderator', undefined],
      [409, 'not_private', undefined],
      [400, 'validation_failed', 'expiresInHours'],
      [400, 'validation_failed', 'expiresInHours'],
      [400, 'validation_failed', 'maxUses'],
      [400, 'validation_failed', 'maxUses'],
      [400, 'validation_failed', ''],
      [400, 'validation_failed', 'code'],
      [400, 'validation_failed', 'code'],
      [400, 'validation_failed', 'code'],
      [400, 'validation_failed', 'code'],
      [404, 'unknown_invite', 'code'],
      [404, 'unknown_invite', 'code'],
      [404, 'unknown_invite', 'inviteId'],
    ]);
    expect(refused[13].body.error.message).toBe('This invite link is not valid (expired, revoked or used up)');
    expect(await count(`SELECT count(*)::int AS n FROM chat_room_invites`)).toBe(1);

    // Revoked (twice: the first time stays), then it lets no one in.
    await send(ada, 'delete', `/api/chat/rooms/${desk.id}/invites/${link.id}`).expect(204);
    const [{ revoked_at: revokedAt }] = await db().query(`SELECT revoked_at FROM chat_room_invites WHERE id = $1`, [link.id]);
    await send(ada, 'delete', `/api/chat/rooms/${desk.id}/invites/${link.id}`).expect(204);
    expect(await db().query(`SELECT revoked_at FROM chat_room_invites WHERE id = $1`, [link.id])).toEqual([{ revoked_at: revokedAt }]);
    expect(answer(await cyd.agent.get(`/api/chat/invites/${link.code}`))).toEqual([404, 'unknown_invite', 'code']);
    expect(answer(await send(cyd, 'post', `/api/chat/invites/${link.code}/accept`))).toEqual([404, 'unknown_invite', 'code']);
    expect(((await ada.agent.get(`/api/chat/rooms/${desk.id}/invites`).expect(200)).body as ChatInvitesResponse).invites[0]).toMatchObject({
      revokedAt: new Date(revokedAt).toISOString(),
      active: false,
    });

    // Expired: its time passed.
    const old = await invite(ada, desk.id, { expiresInHours: 1 });
    await db().query(`UPDATE chat_room_invites SET expires_at = now() - interval '1 second' WHERE id = $1`, [old.id]);
    expect(answer(await send(cyd, 'post', `/api/chat/invites/${old.code}/accept`))).toEqual([404, 'unknown_invite', 'code']);
    expect(await count(`SELECT count(*)::int AS n FROM chat_room_members WHERE room_id = $1`, [desk.id])).toBe(2);
  });

  it('two concurrent accepts of a one-use invite let exactly one user in', async () => {
    const once = await invite(ada, desk.id, { maxUses: 1, expiresInHours: 24 });
    expect(once).toMatchObject({ maxUses: 1, uses: 0 });
    const members = await count(`SELECT count(*)::int AS n FROM chat_room_members WHERE room_id = $1`, [desk.id]);
    // Without the invite row's FOR UPDATE both would read it unused, and both get in.
    const both = await overlapped('chat_room_members', () => [send(dan, 'post', `/api/chat/invites/${once.code}/accept`), send(eve, 'post', `/api/chat/invites/${once.code}/accept`)]);
    expect(both.map(answer).sort()).toEqual([[200], [404, 'unknown_invite', 'code']]);
    expect(await count(`SELECT count(*)::int AS n FROM chat_room_members WHERE room_id = $1`, [desk.id])).toBe(members + 1);
    expect(await db().query(`SELECT uses FROM chat_room_invites WHERE id = $1`, [once.id])).toEqual([{ uses: 1 }]);
    // Used up: the preview says so too.
    const loser = both[0].status === 200 ? eve : dan;
    expect(answer(await loser.agent.get(`/api/chat/invites/${once.code}`))).toEqual([404, 'unknown_invite', 'code']);
  });

  it('a room has at most 100 active invite links: the next one is a 409 until one is revoked; expired, revoked and used-up links do not count', async () => {
    // The links are built in the database (a hundred through the api would only be slower): 99 active
    // ones and one of each kind that no longer counts.
    await db().query(`DELETE FROM chat_room_invites WHERE room_id = $1`, [desk.id]);
    const future = new Date(Date.now() + 86_400_000);
    await db().query(
      `INSERT INTO chat_room_invites (room_id, code_hash, created_by, expires_at, max_uses, uses, revoked_at)
       SELECT $1, md5('cap-' || n), $2, CASE WHEN n = 100 THEN now() - interval '1 hour' ELSE $3 END,
              CASE WHEN n = 101 THEN 1 END, CASE WHEN n = 101 THEN 1 ELSE 0 END, CASE WHEN n = 102 THEN now() END
         FROM generate_series(1, 102) AS n`,
      [desk.id, ada.id, future],
    );
    const hundredth = await invite(ada, desk.id);
    const refused = await send(ada, 'post', `/api/chat/rooms/${desk.id}/invites`, {}).expect(409);
    expect(codeOf(refused)).toBe('too_many_invites');
    expect(await count(`SELECT count(*)::int AS n FROM chat_room_invites WHERE room_id = $1`, [desk.id])).toBe(103);
    await send(ada, 'delete', `/api/chat/rooms/${desk.id}/invites/${hundredth.id}`).expect(204);
    await invite(ada, desk.id);
    await db().query(`DELETE FROM chat_room_invites WHERE room_id = $1 AND code_hash IN (SELECT md5('cap-' || n) FROM generate_series(1, 102) AS n)`, [desk.id]);
  });

  it('a banned member cannot come back by invite (403 banned on preview and accept)', async () => {
    const link = await invite(ada, desk.id, { maxUses: 10 });
    await send(cyd, 'post', `/api/chat/invites/${link.code}/accept`).expect(200);
    await act(ada, desk.id, { action: 'ban', userId: cyd.id, rule: 'spam' }).expect(201);
    expect(answer(await cyd.agent.get(`/api/chat/invites/${link.code}`))).toEqual([403, 'banned', undefined]);
    expect(answer(await send(cyd, 'post', `/api/chat/invites/${link.code}/accept`))).toEqual([403, 'banned', undefined]);
    expect(await db().query(`SELECT uses FROM chat_room_invites WHERE id = $1`, [link.id])).toEqual([{ uses: 1 }]);
  });

  it('the owner appoints and removes moderators (audited); moderators make invites but cannot appoint or change settings', async () => {
    const promoted = (await act(ada, desk.id, { action: 'promote', userId: bob.id }).expect(201)).body as ChatAuditEntry;
    expect(promoted).toMatchObject({ action: 'promote', moderator: { id: ada.id }, target: { id: bob.id, name: 'Bob' }, rule: null });
    expect(await roleOf(bob, desk.id)).toBe('moderator');

    // A moderator: invites yes; appointing, removing and settings no.
    const link = await invite(bob, desk.id, { expiresInHours: 1 });
    expect(((await bob.agent.get(`/api/chat/rooms/${desk.id}/invites`).expect(200)).body as ChatInvitesResponse).invites[0]).toMatchObject({
      id: link.id,
      createdBy: { id: bob.id, name: 'Bob' },
    });
    const member = dan.id === (await db().query(`SELECT user_id FROM chat_room_members WHERE room_id = $1 AND user_id IN ($2, $3)`, [desk.id, dan.id, eve.id]))[0].user_id ? dan : eve;
    const refused = await Promise.all([
      act(bob, desk.id, { action: 'promote', userId: member.id }),
      act(bob, desk.id, { action: 'demote', userId: bob.id }),
      send(bob, 'patch', `/api/chat/rooms/${desk.id}`, { name: 'Bobs desk' }),
      act(ada, desk.id, { action: 'promote', userId: bob.id }),
      act(ada, desk.id, { action: 'demote', userId: member.id }),
      act(ada, desk.id, { action: 'demote', userId: ada.id }),
      act(ada, desk.id, { action: 'promote', userId: cyd.id }),
      act(ada, desk.id, { action: 'promote', userId: (member === dan ? eve : dan).id }),
      act(ada, desk.id, { action: 'promote', userId: 2147483647 }),
      act(ada, desk.id, { action: 'promote' }),
      act(member, desk.id, { action: 'promote', userId: member.id }),
    ]);
    expect(refused.map(answer)).toEqual([
      [403, 'not_owner', undefined],
      [403, 'not_owner', undefined],
      [403, 'not_owner', undefined],
      [409, 'role_unchanged', 'userId'],
      [409, 'role_unchanged', 'userId'],
      [403, 'cannot_target', 'userId'],
      [403, 'cannot_target', 'userId'],
      [403, 'not_member', 'userId'],
      [404, 'unknown_user', 'userId'],
      [400, 'validation_failed', 'userId'],
      [403, 'not_moderator', undefined],
    ]);

    const demoted = (await act(ada, desk.id, { action: 'demote', userId: bob.id, reason: 'Stepping back' }).expect(201)).body as ChatAuditEntry;
    expect(demoted).toMatchObject({ action: 'demote', target: { id: bob.id }, reason: 'Stepping back' });
    expect(await roleOf(bob, desk.id)).toBe('member');
    expect(codeOf(await send(bob, 'post', `/api/chat/rooms/${desk.id}/invites`, {}).expect(403))).toBe('not_moderator');
    const audit = (await ada.agent.get(`/api/chat/rooms/${desk.id}/audit?userId=${bob.id}`).expect(200)).body.entries as ChatAuditEntry[];
    expect(audit.map((e) => e.action)).toEqual(['demote', 'promote']);

    // Handing the room over: the owner only; the member becomes its one owner, the owner a moderator who may leave.
    expect(codeOf(await act(bob, desk.id, { action: 'transfer_ownership', userId: bob.id }).expect(403))).toBe('not_moderator');
    expect(codeOf(await send(ada, 'post', `/api/chat/rooms/${desk.id}/leave`).expect(409))).toBe('owner_cannot_leave');
    const handed = (await act(ada, desk.id, { action: 'transfer_ownership', userId: bob.id }).expect(201)).body as ChatAuditEntry;
    expect(handed).toMatchObject({ action: 'transfer_ownership', moderator: { id: ada.id }, target: { id: bob.id } });
    expect([await roleOf(ada, desk.id), await roleOf(bob, desk.id)]).toEqual(['moderator', 'owner']);
    expect(await db().query(`SELECT count(*)::int AS owners FROM chat_room_members WHERE room_id = $1 AND role = 'owner'`, [desk.id])).toEqual([{ owners: 1 }]);
    expect(codeOf(await act(ada, desk.id, { action: 'transfer_ownership', userId: member.id }).expect(403))).toBe('not_owner');
    await send(bob, 'patch', `/api/chat/rooms/${desk.id}`, { description: 'Bob runs it now' }).expect(200);
    await send(ada, 'post', `/api/chat/rooms/${desk.id}/leave`).expect(204);
  });

  it('the owner changes the privacy: made public, anyone reads it and its invite links are revoked; made private again, only members', async () => {
    // desk is Bob's now; of Dan and Eve, the one the one-use link did not let in is not a member.
    const outsider = (await count(`SELECT count(*)::int AS n FROM chat_room_members WHERE room_id = $1 AND user_id = $2`, [desk.id, dan.id])) ? eve : dan;
    const activeInvites = () => count(`SELECT count(*)::int AS n FROM chat_room_invites WHERE room_id = $1 AND revoked_at IS NULL`, [desk.id]);
    expect(await activeInvites()).toBeGreaterThan(0);
    expect(codeOf(await outsider.agent.get(`/api/chat/rooms/${desk.id}`).expect(403))).toBe('private_room');
    expect(codeOf(await send(outsider, 'patch', `/api/chat/rooms/${desk.id}`, { isPrivate: false }).expect(403))).toBe('not_owner');
    const roomEvents = () => events.filter((e) => e.kind === 'room' && e.roomId === desk.id).length;
    const before = roomEvents();

    expect((await send(bob, 'patch', `/api/chat/rooms/${desk.id}`, { isPrivate: false }).expect(200)).body).toMatchObject({ isPrivate: false });
    expect(await activeInvites()).toBe(0);
    expect(((await outsider.agent.get(`/api/chat/rooms/${desk.id}`).expect(200)).body as ChatRoomView).membership).toBeNull();
    expect(codeOf(await send(bob, 'post', `/api/chat/rooms/${desk.id}/invites`, {}).expect(409))).toBe('not_private');

    expect((await send(bob, 'patch', `/api/chat/rooms/${desk.id}`, { isPrivate: true }).expect(200)).body).toMatchObject({ isPrivate: true });
    expect(codeOf(await outsider.agent.get(`/api/chat/rooms/${desk.id}`).expect(403))).toBe('private_room');
    await invite(bob, desk.id);
    // Each change told the members' open pages.
    await until(async () => roomEvents(), (n) => n === before + 2);
  });

  it('the owner deletes the room with its history: no one else may; its members are told; its creator gets the place back', async () => {
    // desk is Bob's now (handed over above), made by Ada, who left it.
    await send(bob, 'post', `/api/chat/rooms/${desk.id}/messages`, { text: 'last call' }).expect(201);
    const before = await roomsOf(ada);
    const refused = await Promise.all([
      send(cyd, 'delete', `/api/chat/rooms/${desk.id}`),
      send(eve, 'delete', `/api/chat/rooms/${desk.id}`),
      send(ada, 'delete', `/api/chat/rooms/${lobby}`),
      send(bob, 'delete', `/api/chat/rooms/2147483647`),
      send(bob, 'delete', `/api/chat/rooms/abc`),
    ]);
    expect(refused.map(answer)).toEqual([
      [403, 'not_owner', undefined],
      [403, 'not_owner', undefined],
      [403, 'not_owner', undefined],
      [404, 'unknown_room', undefined],
      [400, 'validation_failed', 'id'],
    ]);
    expect(await count(`SELECT count(*)::int AS n FROM chat_rooms WHERE id = $1`, [desk.id])).toBe(1);

    await send(bob, 'delete', `/api/chat/rooms/${desk.id}`).expect(204);
    // Gone for everyone, with everything that hung off it; a second delete finds nothing.
    expect(codeOf(await bob.agent.get(`/api/chat/rooms/${desk.id}`).expect(404))).toBe('unknown_room');
    expect(codeOf(await send(bob, 'delete', `/api/chat/rooms/${desk.id}`).expect(404))).toBe('unknown_room');
    for (const table of ['chat_messages', 'chat_room_members', 'chat_room_invites', 'chat_moderation_actions']) {
      expect([table, await count(`SELECT count(*)::int AS n FROM ${table} WHERE room_id = $1`, [desk.id])]).toEqual([table, 0]);
    }
    expect(((await cyd.agent.get('/api/chat/rooms').expect(200)).body as { rooms: ChatRoomView[] }).rooms.map((room) => room.id)).not.toContain(desk.id);
    await until(async () => events, (list) => list.some((e) => e.kind === 'room' && e.roomId === desk.id && e.deleted === true));
    // The room counted against the plan of whoever made it.
    expect(await roomsOf(ada)).toBe(before - 1);

    // A write that loses the race with the deletion (its room or message gone between the check and the
    // insert) gets the 404 of a moment later: PostgreSQL's refusal, mapped.
    const refusal = async (sql: string, params: unknown[]) => db().query(sql, params).then(() => null, vanishedTarget);
    expect((await refusal(`INSERT INTO chat_messages (room_id, user_id, message) VALUES ($1, $2, 'too late')`, [desk.id, bob.id]))?.code).toBe('unknown_room');
    expect((await refusal(`INSERT INTO message_reactions (message_id, user_id, reaction) VALUES (9007199254740991, $1, '👍')`, [bob.id]))?.code).toBe('unknown_message');
    expect(await refusal(`INSERT INTO chat_messages (room_id, user_id, message) VALUES ($1, 2147483647, 'no such user')`, [lobby])).toBeNull();
  });
});

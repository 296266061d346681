import type http from 'node:http';
import type { ChatMentionsPage, ChatMessageView, ChatMessagesPage, ChatRoomView, ChatThreadView } from '@tickerbell/jobs/chat/shapes';
import { AccountsHarness } from '../support/accounts-harness';
import { chatUser, closeServer, listen, secondSession, send, type ChatUser } from './chat-support';

/**
 * The chat api through the real app (sessions, CSRF, PostgreSQL, Redis): rooms and membership,
 * posting and bad input, history by cursor, unread and mentions across two sessions, threads,
 * reactions, edit and delete, notify levels, presence and preferences, the sentiment split.
 */
describe('chat api (real app)', () => {
  const harness = new AccountsHarness();
  let server: http.Server;
  let ada: ChatUser, bob: ChatUser, cyd: ChatUser;
  let room: number, other: number, secret: number;
  const db = () => harness.db.dataSource;
  const fieldOf = (res: { body: { error: { details?: { field?: string }[] } } }) => res.body.error.details?.[0]?.field;
  const say = async (who: ChatUser, roomId: number, text: string, extra: object = {}): Promise<ChatMessageView> => {
    const res = await send(who, 'post', `/api/chat/rooms/${roomId}/messages`, { text, ...extra });
    if (res.status !== 201) throw new Error(`post answered ${res.status}: ${res.text}`);
    return res.body.message as ChatMessageView;
  };
  const roomOf = async (who: ChatUser, roomId: number): Promise<ChatRoomView> => (await who.agent.get(`/api/chat/rooms/${roomId}`).expect(200)).body as ChatRoomView;
  const history = async (who: ChatUser, roomId: number, query = ''): Promise<ChatMessagesPage> =>
    (await who.agent.get(`/api/chat/rooms/${roomId}/messages${query}`).expect(200)).body as ChatMessagesPage;
  const count = async (sql: string, params: unknown[] = []) => ((await db().query(sql, params)) as { n: number }[])[0].n;

  beforeAll(async () => {
    await harness.start();
    ({ server } = await listen(harness.app({ CHAT_RATE_PER_SECOND: '100', CHAT_RATE_BURST: '100' })));
    [ada, bob, cyd] = await Promise.all([
      chatUser(db(), server, 'ada-chat@example.com', 'Ada Lovelace'),
      chatUser(db(), server, 'bob-chat@example.com', 'Bob'),
      chatUser(db(), server, 'cyd-chat@example.com', 'Cyd'),
    ]);
    [{ id: room }, { id: other }, { id: secret }] = await db().query(
      `INSERT INTO chat_rooms (name, type, trading_pair, is_private) VALUES ('BTC/USDT test', 'trading_pair', 'BTC/USDT', false), ('General test', 'chat', NULL, false), ('Desk', 'chat', NULL, true) RETURNING id`,
    );
    await db().query(`INSERT INTO chat_room_members (room_id, user_id, role) VALUES ($1, $2, 'owner')`, [secret, ada.id]);
  }, 60_000);

  afterAll(async () => {
    await closeServer(server);
    await harness.stop();
  });

  it('joins rooms; refuses bad input with a 4xx naming the field, writing nothing', async () => {
    for (const who of [ada, bob, cyd]) {
      for (const r of [room, other]) expect((await send(who, 'post', `/api/chat/rooms/${r}/join`)).status).toBe(200);
    }
    const view = await roomOf(ada, room);
    expect(view).toMatchObject({ id: room, members: 3, membership: { role: 'member', notifyLevel: 'all' }, unread: 0, mentions: 0 });
    await say(ada, other, 'in the other room');
    const [{ id: elsewhere }] = (await history(ada, other)).messages;

    const before = await count(`SELECT count(*)::int AS n FROM chat_messages`);
    const bad = await Promise.all([
      send(ada, 'post', `/api/chat/rooms/${room}/messages`, { text: '   ' }),
      send(ada, 'post', `/api/chat/rooms/${room}/messages`, { text: 'x'.repeat(2001) }),
      send(ada, 'post', `/api/chat/rooms/${room}/messages`, { text: 'hi', sentiment: 'sideways' }),
      send(ada, 'post', `/api/chat/rooms/${room}/messages`, { text: 'hi', replyToMessageId: elsewhere }),
      send(ada, 'post', `/api/chat/rooms/${room}/messages`, { text: 'hi', replyToMessageId: '999999999' }),
      send(ada, 'post', `/api/chat/rooms/2147483647/messages`, { text: 'hi' }),
      send(bob, 'post', `/api/chat/rooms/${secret}/messages`, { text: 'let me in' }),
      send(ada, 'post', `/api/chat/messages/${elsewhere}/reactions`, { reaction: 'not an emoji' }),
      send(ada, 'post', `/api/chat/messages/${elsewhere}/reactions`, { reaction: '👍'.repeat(6) }),
      ada.agent.get(`/api/chat/rooms/${room}/messages?before=abc`),
      ada.agent.get(`/api/chat/rooms/${room}/messages?before=5&after=3`),
      bob.agent.get(`/api/chat/rooms/${secret}/messages`),
      send(ada, 'post', `/api/chat/rooms/${room}/read`, { messageId: elsewhere }),
    ]);
    expect(bad.map((r) => [r.status, r.body.error.code, fieldOf(r)])).toEqual([
      [400, 'empty_message', 'text'],
      [400, 'message_too_long', 'text'],
      [400, 'validation_failed', 'sentiment'],
      [400, 'wrong_room', 'replyToMessageId'],
      [404, 'unknown_message', 'replyToMessageId'],
      [404, 'unknown_room', undefined],
      [403, 'private_room', undefined],
      [400, 'bad_reaction', 'reaction'],
      [400, 'bad_reaction', 'reaction'],
      [400, 'validation_failed', 'before'],
      [400, 'validation_failed', 'after'],
      [403, 'private_room', undefined],
      [400, 'wrong_room', 'messageId'],
    ]);
    expect(await count(`SELECT count(*)::int AS n FROM chat_messages`)).toBe(before);
    // Not a member: 403 not_member (a public room reads fine).
    await send(cyd, 'post', `/api/chat/rooms/${other}/leave`).expect(204);
    const notMember = await send(cyd, 'post', `/api/chat/rooms/${other}/messages`, { text: 'hi' });
    expect([notMember.status, notMember.body.error.code]).toEqual([403, 'not_member']);
    expect((await history(cyd, other)).messages).toHaveLength(1);
    expect((await roomOf(cyd, other)).membership).toBeNull();
  });

  it('posts with cashtags, mentions and a tag; unread and mentions count on the server, the same in two sessions', async () => {
    const bob2 = await secondSession(server, bob, 'bob-chat@example.com');
    const message = await say(ada, room, '$BTC breaking out, $eth not yet, @bob and @AdaLovelace look', { sentiment: 'bullish' });
    expect(message).toMatchObject({ text: '$BTC breaking out, $eth not yet, @bob and @AdaLovelace look', cashtags: ['BTC'], sentiment: 'bullish', deleted: false });
    expect(message.mentions.map((m) => m.name).sort()).toEqual(['Ada Lovelace', 'Bob']);
    await say(cyd, room, 'second');
    await say(ada, room, 'third');

    for (const session of [bob, bob2]) expect(await roomOf(session, room)).toMatchObject({ unread: 3, mentions: 1 });
    // Own messages are never unread; a mention of oneself is no notification.
    expect(await roomOf(ada, room)).toMatchObject({ unread: 1, mentions: 0 });
    const list = (await bob.agent.get('/api/chat/rooms').expect(200)).body.rooms as ChatRoomView[];
    expect(list[0].id).toBe(room);

    const mentions = (await bob.agent.get('/api/chat/mentions').expect(200)).body as ChatMentionsPage;
    expect(mentions).toMatchObject({ unread: 1, nextCursor: null });
    expect(mentions.mentions[0]).toMatchObject({ type: 'mention', isRead: false, room: { id: room }, message: { id: message.id } });
    // The notifications pipeline told bob too (his level is 'all').
    expect(await count(`SELECT count(*)::int AS n FROM notifications WHERE user_id = $1 AND activity_type = 'chat_mention'`, [bob.id])).toBe(1);

    // Opening the room at the first unread message, in one session; the other agrees.
    const page = await history(bob, room, '?around=unread');
    expect(page.firstUnreadId).toBe(message.id);
    const last = page.messages[page.messages.length - 1].id;
    const read = await send(bob, 'post', `/api/chat/rooms/${room}/read`, { messageId: last }).expect(200);
    expect(read.body).toEqual({ lastReadMessageId: last, unread: 0, mentions: 0 });
    expect(await roomOf(bob2, room)).toMatchObject({ unread: 0, mentions: 0, membership: { lastReadMessageId: last } });
    expect(((await bob2.agent.get('/api/chat/mentions').expect(200)).body as ChatMentionsPage).unread).toBe(0);
    // Never backwards.
    await send(bob2, 'post', `/api/chat/rooms/${room}/read`, { messageId: message.id }).expect(200);
    expect((await roomOf(bob, room)).membership?.lastReadMessageId).toBe(last);
  });

  it('pages the history by cursor without gaps or overlaps, deleted messages kept as deleted', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 7; i++) ids.push((await say(bob, other, `page ${i}`)).id);
    const latest = await history(ada, other, '?limit=3');
    expect(latest.messages.map((m) => m.id)).toEqual(ids.slice(4));
    expect([latest.hasOlder, latest.hasNewer]).toEqual([true, false]);
    const older = await history(ada, other, `?limit=3&before=${ids[4]}`);
    expect(older.messages.map((m) => m.id)).toEqual(ids.slice(1, 4));
    expect([older.hasOlder, older.hasNewer]).toEqual([true, true]);
    const newer = await history(ada, other, `?limit=3&after=${ids[1]}`);
    expect(newer.messages.map((m) => m.id)).toEqual(ids.slice(2, 5));
    expect([newer.hasOlder, newer.hasNewer]).toEqual([true, true]);

    // Edit and delete one's own only.
    const notMine = await send(ada, 'patch', `/api/chat/messages/${ids[3]}`, { text: 'mine now' });
    expect([notMine.status, notMine.body.error.code]).toEqual([403, 'not_author']);
    expect((await send(ada, 'delete', `/api/chat/messages/${ids[3]}`)).status).toBe(403);
    const edited = await send(bob, 'patch', `/api/chat/messages/${ids[3]}`, { text: 'edited $SOL' }).expect(200);
    expect(edited.body.message).toMatchObject({ text: 'edited $SOL', cashtags: ['SOL'], editedAt: expect.any(String) });
    await send(bob, 'delete', `/api/chat/messages/${ids[3]}`).expect(204);
    const again = await send(bob, 'patch', `/api/chat/messages/${ids[3]}`, { text: 'back' });
    expect([again.status, again.body.error.code]).toEqual([409, 'message_deleted']);
    const page = await history(ada, other, `?limit=3&after=${ids[2]}`);
    expect(page.messages[0]).toMatchObject({ id: ids[3], deleted: true, deletedBy: 'author', text: '', cashtags: [] });
  });

  it('threads: replies count on the root, the thread lists them, followers and the answered author are told; levels respected', async () => {
    const root = await say(ada, room, 'Where is $ETH going?');
    const reply = await say(bob, room, 'Up', { replyToMessageId: root.id });
    // A reply to a reply joins the root's thread.
    const nested = await say(cyd, room, 'Down', { replyToMessageId: reply.id });
    expect(nested.replyToMessageId).toBe(root.id);
    const thread = (await ada.agent.get(`/api/chat/messages/${reply.id}/thread`).expect(200)).body as ChatThreadView;
    expect(thread.root).toMatchObject({ id: root.id, replyCount: 2, lastReplyAt: expect.any(String) });
    expect(thread.replies.map((r) => r.id)).toEqual([reply.id, nested.id]);
    expect(thread.following).toBe(true);

    // ada (the root's author) and bob (answered, follower) were told of cyd's reply.
    const replies = async (who: ChatUser) =>
      ((await who.agent.get('/api/chat/mentions').expect(200)).body as ChatMentionsPage).mentions.filter((m) => m.type === 'reply').map((m) => m.message.id);
    expect(await replies(ada)).toEqual([nested.id, reply.id]);
    expect(await replies(bob)).toEqual([nested.id]);

    // Levels: ada at 'mentions' is still told of replies to her message; cyd muted is told nothing; bob unfollows.
    await send(ada, 'patch', `/api/chat/rooms/${room}/preferences`, { notifyLevel: 'mentions' }).expect(200);
    const muted = await send(cyd, 'patch', `/api/chat/rooms/${room}/preferences`, { mutedUntil: new Date(Date.now() + 3600_000).toISOString() }).expect(200);
    expect(muted.body.membership).toMatchObject({ notifyLevel: 'mute', mutedUntil: expect.any(String) });
    await send(bob, 'delete', `/api/chat/messages/${root.id}/follow`).expect(204);
    const pipeline = async (who: ChatUser) => count(`SELECT count(*)::int AS n FROM notifications WHERE user_id = $1 AND activity_type = 'chat_reply'`, [who.id]);
    const [adaBefore, cydBefore, bobBefore] = [await pipeline(ada), await pipeline(cyd), await pipeline(bob)];
    await say(bob, room, 'Sideways, @Cyd', { replyToMessageId: root.id });
    expect([await pipeline(ada), await pipeline(cyd), await pipeline(bob)]).toEqual([adaBefore + 1, cydBefore, bobBefore]);
    expect(await count(`SELECT count(*)::int AS n FROM notifications WHERE user_id = $1 AND activity_type = 'chat_mention'`, [cyd.id])).toBe(0);
    // cyd's mentions tab still has it (the mute silences notifications, not the tab).
    expect(((await cyd.agent.get('/api/chat/mentions').expect(200)).body as ChatMentionsPage).mentions[0]).toMatchObject({ type: 'mention' });
    const bad = await send(ada, 'patch', `/api/chat/rooms/${room}/preferences`, { notifyLevel: 'loud' });
    expect([bad.status, fieldOf(bad)]).toEqual([400, 'notifyLevel']);
  });

  it('reactions: one of each per user and message, counted, removable', async () => {
    const message = await say(ada, room, 'React to me');
    await send(bob, 'post', `/api/chat/messages/${message.id}/reactions`, { reaction: '🚀' }).expect(200);
    const twice = await send(bob, 'post', `/api/chat/messages/${message.id}/reactions`, { reaction: '🚀' }).expect(200);
    expect(twice.body.reactions).toEqual([{ reaction: '🚀', count: 1, mine: true }]);
    await Promise.all([
      send(cyd, 'post', `/api/chat/messages/${message.id}/reactions`, { reaction: '🚀' }),
      send(cyd, 'post', `/api/chat/messages/${message.id}/reactions`, { reaction: '🚀' }),
      send(cyd, 'post', `/api/chat/messages/${message.id}/reactions`, { reaction: '👍🏽' }),
    ]);
    const [view] = (await history(ada, room, `?after=${BigInt(message.id) - 1n}&limit=1`)).messages;
    expect(view.reactions).toEqual([
      { reaction: '🚀', count: 2, mine: false },
      { reaction: '👍🏽', count: 1, mine: false },
    ]);
    const removed = await cyd.agent.delete(`/api/chat/messages/${message.id}/reactions?reaction=${encodeURIComponent('🚀')}`).set('x-csrf-token', cyd.csrf).expect(200);
    expect(removed.body.reactions).toEqual([
      { reaction: '🚀', count: 1, mine: false },
      { reaction: '👍🏽', count: 1, mine: true },
    ]);
    expect(await count(`SELECT count(*)::int AS n FROM message_reactions WHERE message_id = $1`, [message.id])).toBe(2);
  });

  it('presence hides users who turned their online status off; preferences default to on; the 24 h split; cashtag prices', async () => {
    expect((await ada.agent.get('/api/chat/preferences').expect(200)).body).toEqual({ soundNotifications: true, desktopNotifications: true, showOnlineStatus: true });
    await send(bob, 'patch', '/api/chat/preferences', { showOnlineStatus: false }).expect(200);
    await send(ada, 'post', `/api/chat/rooms/${room}/presence`).expect(200);
    const online = await send(bob, 'post', `/api/chat/rooms/${room}/presence`).expect(200);
    expect(online.body.online.map((u: { name: string }) => u.name)).toEqual(['Ada Lovelace']);
    const split = (await ada.agent.get(`/api/chat/rooms/${room}/sentiment`).expect(200)).body;
    expect(split).toMatchObject({ bullish: 1, bearish: 0 });
    await harness.redis.hset(`${harness.prefix}:prices:latest`, 'ETHUSDT', JSON.stringify({ symbol: 'ETHUSDT', price: '3500.5', at: new Date().toISOString(), change24hPercent: '2.5', source: 'test', simulated: true }));
    const page = await history(ada, room, '?limit=100');
    expect(page.prices).toEqual({ ETH: { price: '3500.5', change24hPercent: 2.5 } });
    // Typing answers 204 for a member, 403 for an outsider of a private room.
    await send(ada, 'post', `/api/chat/rooms/${room}/typing`).expect(204);
    expect((await send(bob, 'post', `/api/chat/rooms/${secret}/typing`)).status).toBe(403);
  });
});

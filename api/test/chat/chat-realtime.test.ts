import type http from 'node:http';
import type { ChatMessageView, ChatMessagesPage, ChatStreamEvent } from '@tickerbell/jobs/chat/shapes';
import { AccountsHarness } from '../support/accounts-harness';
import { SseClient } from '../notifications/sse-client';
import { chatUser, closeServer, listen, secondSession, send, type ChatUser } from './chat-support';

/**
 * Real time across two api instances (two apps on one PostgreSQL and one Redis, each with its own
 * stream hub): a message posted on one reaches the streams opened on the other, with typing,
 * reactions, edits, deletes and read marks; resuming after a reconnect by `after=<last id>` leaves
 * no gap and no duplicate; leaving a room stops its events.
 */
describe('chat real time across two api instances', () => {
  const harness = new AccountsHarness();
  const servers: http.Server[] = [];
  const streams: SseClient[] = [];
  let baseA: string, baseB: string;
  let ada: ChatUser, bob: ChatUser;
  let room: number, side: number;
  const db = () => harness.db.dataSource;

  const chatEvents = (client: SseClient): ChatStreamEvent[] => client.events.filter((e) => e.event === 'chat').map((e) => JSON.parse(e.data) as ChatStreamEvent);
  /** Resolves once the stream has a chat event matching `match` (rejects after 5 s). */
  async function eventOn(client: SseClient, match: (event: ChatStreamEvent) => boolean): Promise<ChatStreamEvent> {
    for (let n = client.events.length + 1; ; n++) {
      const found = chatEvents(client).find(match);
      if (found) return found;
      await client.waitFor(n);
    }
  }
  async function stream(base: string, who: ChatUser): Promise<SseClient> {
    const client = await SseClient.open(`${base}/api/stream`, { Cookie: who.cookie });
    streams.push(client);
    return client;
  }
  const say = async (who: ChatUser, roomId: number, text: string): Promise<ChatMessageView> =>
    (await send(who, 'post', `/api/chat/rooms/${roomId}/messages`, { text }).expect(201)).body.message as ChatMessageView;

  beforeAll(async () => {
    await harness.start();
    const env = { CHAT_RATE_PER_SECOND: '100', CHAT_RATE_BURST: '100' };
    const a = await listen(harness.app(env));
    const b = await listen(harness.app(env));
    servers.push(a.server, b.server);
    [baseA, baseB] = [a.base, b.base];
    ada = await chatUser(db(), a.server, 'ada-rt@example.com', 'Ada');
    bob = await chatUser(db(), b.server, 'bob-rt@example.com', 'Bob');
    [{ id: room }, { id: side }] = await db().query(`INSERT INTO chat_rooms (name) VALUES ('Live'), ('Side') RETURNING id`);
    for (const who of [ada, bob]) for (const r of [room, side]) await send(who, 'post', `/api/chat/rooms/${r}/join`).expect(200);
  }, 60_000);

  afterAll(async () => {
    streams.forEach((s) => s.close());
    for (const server of servers) await closeServer(server);
    await harness.stop();
  });

  it('delivers messages, typing, reactions, edits and deletes posted on one instance to streams on the other', async () => {
    const bobStream = await stream(baseB, bob);
    const message = await say(ada, room, 'Hello from instance A $BTC');
    expect(await eventOn(bobStream, (e) => e.kind === 'message' && e.message.id === message.id)).toEqual({ kind: 'message', roomId: room, message });

    await send(ada, 'post', `/api/chat/rooms/${room}/typing`).expect(204);
    expect(await eventOn(bobStream, (e) => e.kind === 'typing')).toEqual({ kind: 'typing', roomId: room, user: { id: ada.id, name: 'Ada' } });

    await send(ada, 'post', `/api/chat/messages/${message.id}/reactions`, { reaction: '🔥' }).expect(200);
    expect(await eventOn(bobStream, (e) => e.kind === 'reactions')).toEqual({ kind: 'reactions', roomId: room, messageId: message.id, reactions: [{ reaction: '🔥', count: 1, userIds: [ada.id] }] });

    await send(ada, 'patch', `/api/chat/messages/${message.id}`, { text: 'Hello, edited' }).expect(200);
    expect(await eventOn(bobStream, (e) => e.kind === 'edited')).toMatchObject({ message: { id: message.id, text: 'Hello, edited' } });
    await send(ada, 'delete', `/api/chat/messages/${message.id}`).expect(204);
    expect(await eventOn(bobStream, (e) => e.kind === 'deleted')).toEqual({ kind: 'deleted', roomId: room, messageId: message.id, by: 'author' });

    // A reply: the message and the root's new counter.
    const root = await say(bob, room, 'Thread root');
    const adaStream = await stream(baseA, ada);
    const reply = (await send(ada, 'post', `/api/chat/rooms/${room}/messages`, { text: 'In the thread', replyToMessageId: root.id }).expect(201)).body.message as ChatMessageView;
    expect(await eventOn(bobStream, (e) => e.kind === 'thread')).toMatchObject({ messageId: root.id, replyCount: 1 });
    expect(await eventOn(adaStream, (e) => e.kind === 'message' && e.message.id === reply.id)).toBeTruthy();
  });

  it('resumes after a reconnect from the last message id: no gap, no duplicate', async () => {
    const first = await stream(baseB, bob);
    const seen = await say(ada, room, 'before the drop');
    await eventOn(first, (e) => e.kind === 'message' && e.message.id === seen.id);
    first.close();

    const missed = [await say(ada, room, 'missed 1'), await say(ada, room, 'missed 2')];
    // Reconnect (to the other instance), then reload what came after the last message seen.
    const again = await stream(baseA, bob);
    const live = await say(ada, room, 'after the reconnect');
    const page = (await bob.agent.get(`/api/chat/rooms/${room}/messages?after=${seen.id}`).expect(200)).body as ChatMessagesPage;
    await eventOn(again, (e) => e.kind === 'message' && e.message.id === live.id);
    const streamed = chatEvents(again).flatMap((e) => (e.kind === 'message' ? [e.message.id] : []));
    // The client's merge: the page, then the stream's messages it does not have yet, in id order.
    const merged = [...new Set([...page.messages.map((m) => m.id), ...streamed])].sort((x, y) => (BigInt(x) < BigInt(y) ? -1 : 1));
    expect(merged).toEqual([...missed.map((m) => m.id), live.id]);
    expect(streamed.filter((id) => id === live.id)).toHaveLength(1);
  });

  it("sends a read mark to the reader's own sessions only, and keeps unread counts equal across them", async () => {
    const bob2 = await secondSession(servers[0], bob, 'bob-rt@example.com');
    const [bobOnA, adaOnB] = [await stream(baseA, bob2), await stream(baseB, ada)];
    const last = await say(ada, side, 'read me');
    await eventOn(adaOnB, (e) => e.kind === 'message' && e.message.id === last.id);
    expect((await bob2.agent.get(`/api/chat/rooms/${side}`).expect(200)).body.unread).toBe(1);
    await send(bob, 'post', `/api/chat/rooms/${side}/read`, { messageId: last.id }).expect(200);
    expect(await eventOn(bobOnA, (e) => e.kind === 'read')).toEqual({ kind: 'read', roomId: side, userId: bob.id, lastReadMessageId: last.id });
    expect((await bob2.agent.get(`/api/chat/rooms/${side}`).expect(200)).body.unread).toBe(0);
    // ada's stream saw no read mark (a marker message after it proves the stream is up to date).
    const marker = await say(bob, side, 'marker');
    await eventOn(adaOnB, (e) => e.kind === 'message' && e.message.id === marker.id);
    expect(chatEvents(adaOnB).filter((e) => e.kind === 'read')).toEqual([]);
  });

  it("tells a muted or unmuted member's own streams on every instance of the change (standing), and no one else", async () => {
    // Ada moderates the side room (set in the database: the seeded rooms have no owner to appoint her).
    await db().query(`UPDATE chat_room_members SET role = 'moderator' WHERE room_id = $1 AND user_id = $2`, [side, ada.id]);
    const [bobOnA, adaOnB] = [await stream(baseA, bob), await stream(baseB, ada)];
    await send(ada, 'post', `/api/chat/rooms/${side}/moderation`, { action: 'mute', userId: bob.id, minutes: 5, rule: 'spam' }).expect(201);
    expect(await eventOn(bobOnA, (e) => e.kind === 'standing')).toEqual({ kind: 'standing', roomId: side, userId: bob.id });
    expect((await bob.agent.get(`/api/chat/rooms/${side}`).expect(200)).body.membership.moderationMutedUntil).not.toBeNull();
    await send(ada, 'post', `/api/chat/rooms/${side}/moderation`, { action: 'unmute', userId: bob.id }).expect(201);
    await eventOn(bobOnA, (e) => e.kind === 'standing' && chatEvents(bobOnA).filter((x) => x.kind === 'standing').length === 2);
    // Ada's stream saw neither (a marker message after them proves the stream is up to date).
    const marker = await say(ada, side, 'standing marker');
    await eventOn(adaOnB, (e) => e.kind === 'message' && e.message.id === marker.id);
    expect(chatEvents(adaOnB).filter((e) => e.kind === 'standing')).toEqual([]);
    // A report of a message in the room tells its moderators (their open-report count changed).
    await send(bob, 'post', `/api/chat/messages/${marker.id}/report`, { reason: 'testing the count' }).expect(201);
    expect(await eventOn(adaOnB, (e) => e.kind === 'standing')).toEqual({ kind: 'standing', roomId: side, userId: ada.id });
    await db().query(`UPDATE chat_room_members SET role = 'member' WHERE room_id = $1 AND user_id = $2`, [side, ada.id]);
  });

  it("leaves a blocked author's messages and typing out of the blocker's streams on every instance, until unblocked", async () => {
    const bobOnA = await stream(baseA, bob);
    await send(bob, 'post', '/api/chat/blocks', { userId: ada.id }).expect(201);
    // The relay of instance A learns of the block from the `blocks` relay event (published on B's side, where bob asked).
    const hidden = await say(ada, room, 'you should not see this');
    await send(ada, 'post', `/api/chat/rooms/${room}/typing`).expect(204);
    const marker = await say(bob, room, 'blocked marker');
    await eventOn(bobOnA, (e) => e.kind === 'message' && e.message.id === marker.id);
    expect(chatEvents(bobOnA).filter((e) => (e.kind === 'message' && e.message.author?.id === ada.id) || (e.kind === 'typing' && e.user.id === ada.id))).toEqual([]);
    expect(chatEvents(bobOnA).some((e) => e.kind === 'message' && e.message.id === hidden.id)).toBe(false);
    await send(bob, 'delete', `/api/chat/blocks/${ada.id}`).expect(204);
    const seen = await say(ada, room, 'visible again');
    await eventOn(bobOnA, (e) => e.kind === 'message' && e.message.id === seen.id);
  });

  it('stops relaying a room to a member who left it (the relay follows the member events on every instance)', async () => {
    const bobStream = await stream(baseB, bob);
    await send(bob, 'post', `/api/chat/rooms/${room}/leave`).expect(204);
    await eventOn(bobStream, (e) => e.kind === 'member' && !e.joined && e.userId === bob.id);
    const hidden = await say(ada, room, 'bob is gone');
    const marker = await say(ada, side, 'marker in the side room');
    await eventOn(bobStream, (e) => e.kind === 'message' && e.message.id === marker.id);
    expect(chatEvents(bobStream).some((e) => e.kind === 'message' && e.message.id === hidden.id)).toBe(false);
    // Joining again resumes it.
    await send(bob, 'post', `/api/chat/rooms/${room}/join`).expect(200);
    await eventOn(bobStream, (e) => e.kind === 'member' && e.joined && e.userId === bob.id);
    const back = await say(ada, room, 'welcome back');
    await eventOn(bobStream, (e) => e.kind === 'message' && e.message.id === back.id);
  });

  it("tells a deleted room's members on every instance (room, deleted); posting to it then is a 404", async () => {
    // Ada owns a room of her own (created through the api), Bob joins it; his stream is on the other instance.
    const made = (await send(ada, 'post', '/api/chat/rooms', { name: 'Short-lived desk' }).expect(201)).body as { id: number };
    await send(bob, 'post', `/api/chat/rooms/${made.id}/join`).expect(200);
    const bobOnB = await stream(baseB, bob);
    const before = await say(ada, made.id, 'closing soon');
    await eventOn(bobOnB, (e) => e.kind === 'message' && e.message.id === before.id);
    await send(ada, 'delete', `/api/chat/rooms/${made.id}`).expect(204);
    expect(await eventOn(bobOnB, (e) => e.kind === 'room')).toEqual({ kind: 'room', roomId: made.id, deleted: true });
    // The room is gone for everyone: posting to it is the 404 of an unknown room, not a 500.
    expect((await send(bob, 'post', `/api/chat/rooms/${made.id}/messages`, { text: 'anyone?' }).expect(404)).body.error.code).toBe('unknown_room');
  });
});

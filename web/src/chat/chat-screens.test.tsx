import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import type { ChatMessageView, ChatMessagesPage, ChatRoomView } from '@tickerbell/jobs/chat/shapes';
import type { FakeHandler, FakeReply } from '../../test/fake-fetch';
import { removeFetch } from '../../test/fake-fetch';
import { signedInSession } from '../../test/providers';
import { installFakeApi, renderApp } from '../../test/render-app';
import { mergeMessages, postErrorMessage, splitMessage } from './chat-client';
import { publishChatEvent } from './chat-stream';
import { ApiError } from '../api/client';

jest.mock('react-toastify', () => ({ toast: jest.fn(), ToastContainer: () => null }));

const ADA = { id: 7, name: 'Ada Lovelace' };
const GRACE = { id: 8, name: 'Grace Hopper' };

const room = (fields: Partial<ChatRoomView> & Pick<ChatRoomView, 'id' | 'name'>): ChatRoomView => ({
  type: 'chat',
  description: null,
  tradingPair: null,
  isPrivate: false,
  slowModeSeconds: 0,
  members: 12,
  membership: { role: 'member', notifyLevel: 'all', mutedUntil: null, moderationMutedUntil: null, lastReadMessageId: '100' },
  unread: 0,
  mentions: 0,
  lastMessageAt: '2026-11-02T10:00:00.000Z',
  openReports: null,
  ...fields,
});

const message = (fields: Partial<ChatMessageView> & Pick<ChatMessageView, 'id' | 'text'>): ChatMessageView => ({
  roomId: 2,
  author: GRACE,
  messageType: 'user_message',
  sentiment: null,
  cashtags: [],
  mentions: [],
  replyToMessageId: null,
  replyCount: 0,
  lastReplyAt: null,
  reactions: [],
  createdAt: '2026-11-02T10:00:00.000Z',
  editedAt: null,
  deleted: false,
  deletedBy: null,
  ...fields,
});

const GENERAL = room({ id: 1, name: 'General' });
const BTC = room({ id: 2, name: 'BTC/USDT', type: 'trading_pair', tradingPair: 'BTC/USDT', unread: 2, mentions: 1 });
const ETH = room({ id: 3, name: 'ETH/USDT', type: 'trading_pair', tradingPair: 'ETH/USDT', membership: null });

const HISTORY: ChatMessagesPage & { prices: Record<string, { price: string; change24hPercent: number | null }> } = {
  messages: [
    message({ id: '100', text: 'Morning all', author: ADA }),
    message({ id: '101', text: '@AdaLovelace $BTC looks heavy <b>here</b>', cashtags: ['BTC'], mentions: [ADA], sentiment: 'bearish', replyCount: 2, lastReplyAt: '2026-11-02T10:05:00.000Z' }),
    message({ id: '102', text: '', deleted: true, deletedBy: 'moderator' }),
  ],
  hasOlder: false,
  hasNewer: false,
  firstUnreadId: '101',
  prices: { BTC: { price: '68123.5', change24hPercent: -1.25 } },
};

const error = (status: number, code: string, text: string, details?: unknown): FakeReply => ({ status, body: { error: { code, message: text, requestId: 'r', ...(details ? { details } : {}) } } });

function chatApi(overrides: Record<string, FakeHandler> = {}) {
  const calls: string[] = [];
  const handler: FakeHandler = (path, init) => {
    const method = init?.method ?? 'GET';
    const key = `${method} ${path.split('?')[0]}`;
    calls.push(`${method} ${path}`);
    const override = overrides[key];
    if (override) return override(path, init);
    switch (key) {
      case 'GET /api/chat/rooms':
        return { status: 200, body: { rooms: [BTC, GENERAL, ETH] } };
      case 'GET /api/chat/preferences':
        return { status: 200, body: { soundNotifications: false, desktopNotifications: false, showOnlineStatus: true } };
      case 'GET /api/chat/rooms/2/messages':
        return { status: 200, body: HISTORY };
      case 'GET /api/chat/rooms/2/presence':
        return { status: 200, body: { online: [ADA, GRACE] } };
      case 'POST /api/chat/rooms/2/presence':
        return { status: 200, body: { online: [ADA, GRACE] } };
      case 'GET /api/chat/rooms/2/sentiment':
        return { status: 200, body: { bullish: 3, bearish: 1, since: '2026-11-01T10:00:00.000Z' } };
      case 'POST /api/chat/rooms/2/read':
        return { status: 200, body: {} };
      case 'GET /api/markets/quotes':
        return { status: 200, body: { quotes: [] } };
      case 'POST /api/alerts/crypto/check':
        return { status: 200, body: { triggeredAlerts: [] } };
      default:
        throw new Error(`The test has no answer for ${key}`);
    }
  };
  return Object.assign(handler, { calls });
}

beforeEach(() => window.localStorage.clear());
afterEach(removeFetch);

describe('message text', () => {
  it('splits cashtags the api found and mentions it resolved; the rest stays text, HTML included', () => {
    expect(splitMessage({ text: 'Long $btc and $NOPE, @AdaLovelace. <img src=x>', cashtags: ['BTC'], mentions: [ADA] })).toEqual([
      { kind: 'text', text: 'Long ' },
      { kind: 'cashtag', text: '$btc', symbol: 'BTC' },
      { kind: 'text', text: ' and $NOPE, ' },
      { kind: 'mention', text: '@AdaLovelace', user: ADA },
      { kind: 'text', text: '. <img src=x>' },
    ]);
    expect(mergeMessages([message({ id: '5', text: 'a' }), message({ id: '10', text: 'b' })], [message({ id: '9', text: 'c' }), message({ id: '10', text: 'b2' })]).map((m) => m.text)).toEqual(['a', 'c', 'b2']);
    const limited = new ApiError({ status: 429, code: 'slow_mode', message: 'Slow mode', details: [{ message: 'Slow mode', retryAfterSeconds: 4.2 }] });
    expect(postErrorMessage(limited, { slowModeSeconds: 10 })).toEqual({ message: 'Slow mode is on: one message every 10 seconds.', waitSeconds: 5 });
  });
});

describe('chat screens', () => {
  it('lists rooms with counts, opens a room at its first unread, and shows messages as text with prices and marks', async () => {
    const api = chatApi();
    installFakeApi(signedInSession({ id: '7', name: 'Ada Lovelace' }), api);
    renderApp('/dashboard/chat/2');
    const rooms = await screen.findByRole('navigation', { name: 'Chat rooms' });
    expect(await within(rooms).findByRole('link', { name: 'BTC/USDT, 2 unread, 1 mention' })).toHaveAttribute('aria-current', 'page');
    expect(within(rooms).getByRole('link', { name: 'ETH/USDT' })).toBeInTheDocument();

    const log = await screen.findByRole('list', { name: 'Messages in BTC/USDT' });
    expect(within(log).getByRole('separator', { name: '2 new messages' })).toBeInTheDocument();
    const bearish = log.querySelector<HTMLElement>('[data-message-id="101"]')!;
    expect(bearish).toHaveTextContent('@AdaLovelace $BTC68,123.50−1.25% looks heavy <b>here</b>');
    expect(bearish.querySelector('b')).toBeNull();
    expect(within(bearish).getByText('Bearish')).toBeInTheDocument();
    expect(within(bearish).getByRole('button', { name: /2 replies/ })).toBeInTheDocument();
    expect(within(log).getByText('Removed by a moderator')).toBeInTheDocument();
    expect(screen.getByText('75% bull')).toBeInTheDocument();
    expect(screen.getByText('2 online')).toBeInTheDocument();
    await waitFor(() => expect(api.calls).toContain('POST /api/chat/rooms/2/read'));
  });

  it('posts, explains a rate limit with its wait, and counts live messages of other rooms', async () => {
    let limited = true;
    const api = chatApi({
      'POST /api/chat/rooms/2/messages': (_path, init) => {
        if (limited) return error(429, 'rate_limited', 'Too many messages', [{ message: 'Too many messages', retryAfterSeconds: 3 }]);
        const body = JSON.parse(String(init?.body)) as { text: string; sentiment?: string };
        return { status: 201, body: { message: message({ id: '103', text: body.text, author: ADA, sentiment: body.sentiment === 'bullish' ? 'bullish' : null }) } };
      },
    });
    installFakeApi(signedInSession({ id: '7', name: 'Ada Lovelace' }), api);
    renderApp('/dashboard/chat/2');
    const composer = within(await screen.findByRole('form', { name: 'Message BTC/USDT' }));
    fireEvent.change(composer.getByLabelText('Message BTC/USDT'), { target: { value: 'Buying the dip' } });
    expect(composer.getByText('14 / 2,000')).toBeInTheDocument();
    fireEvent.click(composer.getByRole('button', { name: 'Bullish' }));
    fireEvent.click(composer.getByRole('button', { name: 'Send' }));
    expect(await composer.findByRole('alert')).toHaveTextContent('You are sending messages faster than the room allows. You can send again in 3 s.');
    expect(composer.getByRole('button', { name: 'Wait 3 s' })).toBeDisabled();

    limited = false;
    act(() => publishChatEvent({ kind: 'message', roomId: 1, message: message({ id: '200', roomId: 1, text: 'hi @AdaLovelace', mentions: [ADA] }) }));
    expect(await screen.findByRole('link', { name: 'General, 1 unread, 1 mention' })).toBeInTheDocument();
    act(() => publishChatEvent({ kind: 'message', roomId: 2, message: message({ id: '104', text: 'Live from Grace' }) }));
    expect(await screen.findByText('Live from Grace')).toBeInTheDocument();
    act(() => publishChatEvent({ kind: 'typing', roomId: 2, user: GRACE }));
    expect(await screen.findByText('Grace Hopper is typing…')).toBeInTheDocument();
  });

  it('shows a failed room list with Try again, and an empty room', async () => {
    let fail = true;
    const api = chatApi({
      'GET /api/chat/rooms': () => (fail ? error(503, 'database_unavailable', 'The database is unavailable; try again shortly') : { status: 200, body: { rooms: [GENERAL] } }),
      'GET /api/chat/rooms/1/messages': () => ({ status: 200, body: { messages: [], hasOlder: false, hasNewer: false, firstUnreadId: null } }),
      'GET /api/chat/rooms/1/presence': () => ({ status: 200, body: { online: [] } }),
      'POST /api/chat/rooms/1/presence': () => ({ status: 200, body: { online: [] } }),
      'GET /api/chat/rooms/1/sentiment': () => ({ status: 200, body: { bullish: 0, bearish: 0, since: '2026-11-01T10:00:00.000Z' } }),
    });
    installFakeApi(signedInSession({ id: '7', name: 'Ada Lovelace' }), api);
    renderApp('/dashboard/chat/1');
    expect(await screen.findByRole('alert')).toHaveTextContent('The rooms could not be loaded: The database is unavailable; try again shortly');
    fail = false;
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText(/No messages yet\. Say hello/)).toBeInTheDocument();
    expect(screen.getByText('No bull/bear tags in 24 h')).toBeInTheDocument();
    expect(screen.getByText('Nobody online')).toBeInTheDocument();
  });
});

describe('rooms, invite links and moderators', () => {
  const CODE = 'q3Vd8xP0LmN2rT5wYz7A1b';
  const OWNER = { role: 'owner' as const, notifyLevel: 'all' as const, mutedUntil: null, moderationMutedUntil: null, lastReadMessageId: null };
  const DESK = room({ id: 9, name: 'Options desk', description: 'Skew and flows', isPrivate: true, slowModeSeconds: 30, members: 1, unread: 0, lastMessageAt: null, membership: OWNER });
  const emptyRoom = (id: number): Record<string, FakeHandler> => ({
    [`GET /api/chat/rooms/${id}/messages`]: () => ({ status: 200, body: { messages: [], hasOlder: false, hasNewer: false, firstUnreadId: null } }),
    [`GET /api/chat/rooms/${id}/presence`]: () => ({ status: 200, body: { online: [] } }),
    [`POST /api/chat/rooms/${id}/presence`]: () => ({ status: 200, body: { online: [] } }),
    [`GET /api/chat/rooms/${id}/sentiment`]: () => ({ status: 200, body: { bullish: 0, bearish: 0, since: '2026-11-01T10:00:00.000Z' } }),
  });
  const bodyOf = (init?: RequestInit): unknown => JSON.parse(String(init?.body));

  it('creates a room from the New room dialog: checks the name, shows a taken one under the field, then opens the room', async () => {
    const sent: unknown[] = [];
    const api = chatApi({
      ...emptyRoom(9),
      'POST /api/chat/rooms': (_path, init) => {
        sent.push(bodyOf(init));
        if (sent.length === 1) return error(409, 'room_name_taken', 'A room is named “General” already', [{ field: 'name', message: 'A room is named “General” already' }]);
        return { status: 201, body: DESK };
      },
    });
    installFakeApi(signedInSession({ id: '7', name: 'Ada Lovelace' }), api);
    const router = renderApp('/dashboard/chat');
    fireEvent.click(await screen.findByRole('button', { name: 'New room' }));
    const dialog = within(screen.getByRole('dialog', { name: 'New room' }));
    const name = dialog.getByLabelText('Name');
    expect(name).toHaveFocus();

    fireEvent.change(name, { target: { value: ' ab ' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Create room' }));
    expect(name).toHaveAccessibleDescription(/A room’s name has 3 to 60 characters\./);
    expect(sent).toHaveLength(0);

    fireEvent.change(name, { target: { value: 'general' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Create room' }));
    await waitFor(() => expect(name).toHaveAccessibleDescription(/A room is named “General” already/));
    expect(name).toHaveAttribute('aria-invalid', 'true');
    expect(name).toHaveFocus();

    fireEvent.change(name, { target: { value: '  Options desk ' } });
    fireEvent.change(dialog.getByLabelText('Description (optional)'), { target: { value: 'Skew and flows' } });
    fireEvent.click(dialog.getByRole('checkbox', { name: 'Private: members join by invite link' }));
    fireEvent.change(dialog.getByLabelText('Slow mode'), { target: { value: '30' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Create room' }));

    expect(await screen.findByRole('heading', { level: 2, name: 'Options desk' })).toBeInTheDocument();
    expect(sent[1]).toEqual({ name: 'Options desk', description: 'Skew and flows', isPrivate: true, slowModeSeconds: 30 });
    expect(router.state.location.pathname).toBe('/dashboard/chat/9');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(within(screen.getByRole('navigation', { name: 'Chat rooms' })).getByRole('link', { name: 'Options desk' })).toHaveAttribute('aria-current', 'page');
    expect(screen.getByRole('button', { name: 'Invite people' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Room settings' })).toBeInTheDocument();
  });

  it('explains a plan limit in the New room dialog with the way to upgrade', async () => {
    const api = chatApi({
      'POST /api/chat/rooms': () => ({
        status: 403,
        body: {
          error: {
            code: 'plan_limit',
            message: 'Your Free plan allows 1 chat rooms created (you have 1): remove one, or upgrade on the pricing page',
            details: { plan: 'free', limit: 'chatRoomsCreated', max: 1, used: 1, upgradeUrl: '/pricing' },
            requestId: 'r',
          },
        },
      }),
    });
    installFakeApi(signedInSession({ id: '7', name: 'Ada Lovelace' }), api);
    renderApp('/dashboard/chat');
    fireEvent.click(await screen.findByRole('button', { name: 'New room' }));
    const dialog = within(screen.getByRole('dialog', { name: 'New room' }));
    fireEvent.change(dialog.getByLabelText('Name'), { target: { value: 'Second room' } });
    fireEvent.click(dialog.getByRole('button', { name: 'Create room' }));
    const alert = await dialog.findByRole('alert');
    expect(alert).toHaveTextContent('Your Free plan allows 1 chat rooms created (you have 1)');
    expect(within(alert).getByRole('link', { name: 'Compare plans' })).toHaveAttribute('href', '/pricing');
    expect(dialog.getByLabelText('Name')).not.toHaveAttribute('aria-invalid');
  });

  it('lets the owner change the room settings, sending only what changed', async () => {
    let patch: unknown = null;
    const api = chatApi({
      ...emptyRoom(9),
      'GET /api/chat/rooms': () => ({ status: 200, body: { rooms: [DESK, GENERAL] } }),
      'PATCH /api/chat/rooms/9': (_path, init) => {
        patch = bodyOf(init);
        return { status: 200, body: { ...DESK, name: 'Options desk EU', slowModeSeconds: 60 } };
      },
    });
    installFakeApi(signedInSession({ id: '7', name: 'Ada Lovelace' }), api);
    renderApp('/dashboard/chat/9');
    fireEvent.click(await screen.findByRole('button', { name: 'Room settings' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Room settings' }));
    expect(dialog.getByLabelText('Name')).toHaveValue('Options desk');
    expect(dialog.getByLabelText('Slow mode')).toHaveValue('30');
    const privacy = dialog.getByRole('checkbox', { name: 'Private: members join by invite link' });
    expect(privacy).toBeChecked();
    fireEvent.change(dialog.getByLabelText('Name'), { target: { value: 'Options desk EU' } });
    fireEvent.change(dialog.getByLabelText('Slow mode'), { target: { value: '60' } });
    // Making it public says what that does; unchecked and checked again, nothing to say.
    fireEvent.click(privacy);
    expect(dialog.getByText('Anyone signed in will read and join it, and its invite links stop working.')).toBeInTheDocument();
    fireEvent.click(privacy);
    expect(dialog.queryByText(/invite links stop working/)).toBeNull();
    fireEvent.click(dialog.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('heading', { level: 2, name: 'Options desk EU' })).toBeInTheDocument();
    expect(patch).toEqual({ name: 'Options desk EU', slowModeSeconds: 60 });
    expect(screen.getByRole('status')).toHaveTextContent('The room settings were saved.');
    expect(screen.getByText('Slow mode: one message every 1 min.')).toBeInTheDocument();
  });

  it('lets the owner make a private room public: isPrivate is sent, and Invite people goes', async () => {
    let patch: unknown = null;
    const api = chatApi({
      ...emptyRoom(9),
      'GET /api/chat/rooms': () => ({ status: 200, body: { rooms: [DESK, GENERAL] } }),
      'PATCH /api/chat/rooms/9': (_path, init) => {
        patch = bodyOf(init);
        return { status: 200, body: { ...DESK, isPrivate: false } };
      },
    });
    installFakeApi(signedInSession({ id: '7', name: 'Ada Lovelace' }), api);
    renderApp('/dashboard/chat/9');
    expect(await screen.findByRole('button', { name: 'Invite people' })).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Room settings' }));
    const dialog = within(screen.getByRole('dialog', { name: 'Room settings' }));
    fireEvent.click(dialog.getByRole('checkbox', { name: 'Private: members join by invite link' }));
    fireEvent.click(dialog.getByRole('button', { name: 'Save' }));
    expect(await screen.findByRole('status')).toHaveTextContent('The room settings were saved.');
    expect(patch).toEqual({ isPrivate: false });
    expect(screen.queryByRole('button', { name: 'Invite people' })).toBeNull();
  });

  it('lets the owner delete the room after a confirmation that says what goes, then leaves it', async () => {
    let deletes = 0;
    const api = chatApi({
      ...emptyRoom(9),
      'GET /api/chat/rooms': () => ({ status: 200, body: { rooms: deletes ? [GENERAL] : [{ ...DESK, members: 3 }, GENERAL] } }),
      'DELETE /api/chat/rooms/9': () => {
        deletes += 1;
        return deletes === 1 ? error(503, 'unavailable', 'The service is restarting') : { status: 204 };
      },
    });
    installFakeApi(signedInSession({ id: '7', name: 'Ada Lovelace' }), api);
    const router = renderApp('/dashboard/chat/9');
    fireEvent.click(await screen.findByRole('button', { name: 'Delete room…' }));
    const dialog = within(screen.getByRole('alertdialog', { name: 'Delete “Options desk”?' }));
    expect(dialog.getByText(/its 2 other members lose it\. This cannot be undone\./)).toBeInTheDocument();
    // Cancel has the focus: Enter does not delete.
    expect(dialog.getByRole('button', { name: 'Cancel' })).toHaveFocus();
    fireEvent.click(dialog.getByRole('button', { name: 'Delete room' }));
    expect(await dialog.findByRole('alert')).toHaveTextContent('The room was not deleted: The service is restarting');
    fireEvent.click(dialog.getByRole('button', { name: 'Delete room' }));
    expect(await screen.findByRole('status')).toHaveTextContent('You deleted “Options desk”.');
    expect(router.state.location.pathname).toBe('/dashboard/chat');
    expect(within(screen.getByRole('navigation', { name: 'Chat rooms' })).queryByRole('link', { name: /Options desk/ })).toBeNull();
    expect(deletes).toBe(2);
  });

  it("leaves a room its owner deleted, live, and says so", async () => {
    const api = chatApi({ ...emptyRoom(9), 'GET /api/chat/rooms': () => ({ status: 200, body: { rooms: [{ ...DESK, membership: { ...OWNER, role: 'member' } }, GENERAL] } }) });
    installFakeApi(signedInSession({ id: '7', name: 'Ada Lovelace' }), api);
    const router = renderApp('/dashboard/chat/9');
    await screen.findByRole('heading', { level: 2, name: 'Options desk' });
    expect(screen.queryByRole('button', { name: 'Delete room…' })).toBeNull();
    act(() => publishChatEvent({ kind: 'room', roomId: 9, deleted: true }));
    expect(await screen.findByRole('status')).toHaveTextContent('“Options desk” was deleted by its owner.');
    expect(router.state.location.pathname).toBe('/dashboard/chat');
    expect(within(screen.getByRole('navigation', { name: 'Chat rooms' })).queryByRole('link', { name: /Options desk/ })).toBeNull();
  });

  it('makes an invite link, shows it once in full with Copy, lists the active links and revokes one', async () => {
    let invites: unknown[] = [];
    let made: unknown = null;
    const writeText = jest.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    const created = { id: 31, code: CODE, url: `/dashboard/chat/join/${CODE}`, expiresAt: '2026-11-03T10:00:00.000Z', maxUses: 10, uses: 0 };
    const listed = { id: 31, createdBy: ADA, createdAt: '2026-11-02T10:00:00.000Z', expiresAt: '2026-11-03T10:00:00.000Z', maxUses: 10, uses: 0, revokedAt: null, active: true };
    const api = chatApi({
      ...emptyRoom(9),
      'GET /api/chat/rooms': () => ({ status: 200, body: { rooms: [DESK] } }),
      'GET /api/chat/rooms/9/invites': () => ({ status: 200, body: { invites } }),
      'POST /api/chat/rooms/9/invites': (_path, init) => {
        made = bodyOf(init);
        invites = [listed, { ...listed, id: 30, active: false, revokedAt: '2026-11-01T10:00:00.000Z' }];
        return { status: 201, body: created };
      },
      'DELETE /api/chat/rooms/9/invites/31': () => ({ status: 204 }),
    });
    installFakeApi(signedInSession({ id: '7', name: 'Ada Lovelace' }), api);
    renderApp('/dashboard/chat/9');
    fireEvent.click(await screen.findByRole('button', { name: 'Invite people' }));
    const panel = within(screen.getByRole('complementary', { name: 'Invite people' }));
    expect(await panel.findByText('No active link. Make one above to let people in.')).toBeInTheDocument();

    fireEvent.change(panel.getByLabelText('Expires after'), { target: { value: '24' } });
    fireEvent.change(panel.getByLabelText('Uses'), { target: { value: '10' } });
    fireEvent.click(panel.getByRole('button', { name: 'Create link' }));
    const link = await panel.findByLabelText('New invite link');
    expect(made).toEqual({ expiresInHours: 24, maxUses: 10 });
    expect(link).toHaveValue(`${window.location.origin}/dashboard/chat/join/${CODE}`);
    fireEvent.click(panel.getByRole('button', { name: 'Copy' }));
    expect(await panel.findByText('Copied.')).toBeInTheDocument();
    expect(writeText).toHaveBeenCalledWith(`${window.location.origin}/dashboard/chat/join/${CODE}`);

    const active = await panel.findByRole('list', { name: 'Active invite links' });
    expect(within(active).getAllByRole('listitem')).toHaveLength(1);
    expect(active).toHaveTextContent('Ada Lovelace');
    expect(active).toHaveTextContent('0 of 10 uses');
    fireEvent.click(within(active).getByRole('button', { name: /^Revoke the link Ada Lovelace made/ }));
    expect(await panel.findByText('No active link. Make one above to let people in.')).toBeInTheDocument();
    expect(panel.getByText('The link was revoked: it lets nobody in any more.')).toBeInTheDocument();
    expect(panel.queryByLabelText('New invite link')).toBeNull();
    expect(api.calls).toContain('DELETE /api/chat/rooms/9/invites/31');
    Reflect.deleteProperty(navigator, 'clipboard');
  });

  it('moves focus into the invite panel and to the new link, and re-reads the links live when someone joins', async () => {
    const created = { id: 32, code: CODE, url: `/dashboard/chat/join/${CODE}`, expiresAt: '2026-11-03T10:00:00.000Z', maxUses: 1, uses: 0 };
    const listed = { id: 32, createdBy: ADA, createdAt: '2026-11-02T10:00:00.000Z', expiresAt: '2026-11-03T10:00:00.000Z', maxUses: 1, uses: 0, revokedAt: null, active: true };
    let invites: unknown[] = [];
    const api = chatApi({
      ...emptyRoom(9),
      'GET /api/chat/rooms': () => ({ status: 200, body: { rooms: [DESK] } }),
      'GET /api/chat/rooms/9/invites': () => ({ status: 200, body: { invites } }),
      'POST /api/chat/rooms/9/invites': () => {
        invites = [listed];
        return { status: 201, body: created };
      },
    });
    installFakeApi(signedInSession({ id: '7', name: 'Ada Lovelace' }), api);
    renderApp('/dashboard/chat/9');
    const open = await screen.findByRole('button', { name: 'Invite people' });
    open.focus();
    fireEvent.click(open);
    const panel = within(screen.getByRole('complementary', { name: 'Invite people' }));
    expect(panel.getByRole('heading', { name: 'Invite people' })).toHaveFocus();

    fireEvent.change(panel.getByLabelText('Uses'), { target: { value: '1' } });
    fireEvent.click(panel.getByRole('button', { name: 'Create link' }));
    const link = await panel.findByLabelText('New invite link');
    expect(link).toHaveFocus();
    expect(await panel.findByRole('list', { name: 'Active invite links' })).toHaveTextContent('0 of 1 use');

    // Grace joins with it: the panel reads the links again, the used-up link leaves the list and the box.
    invites = [{ ...listed, uses: 1, active: false }];
    act(() => publishChatEvent({ kind: 'member', roomId: 9, userId: 8, joined: true }));
    expect(await panel.findByText('No active link. Make one above to let people in.')).toBeInTheDocument();
    await waitFor(() => expect(panel.queryByLabelText('New invite link')).toBeNull());
    expect(panel.getByRole('status')).toHaveTextContent('Your new link has been used up: it lets nobody else in.');
    expect(panel.getByRole('heading', { name: 'Active links' })).toHaveFocus();
    // A join elsewhere does not ask again.
    const asked = api.calls.filter((call) => call === 'GET /api/chat/rooms/9/invites').length;
    act(() => publishChatEvent({ kind: 'member', roomId: 1, userId: 8, joined: true }));
    expect(api.calls.filter((call) => call === 'GET /api/chat/rooms/9/invites')).toHaveLength(asked);

    fireEvent.click(panel.getByRole('button', { name: 'Close invites' }));
    expect(screen.getByRole('button', { name: 'Invite people' })).toHaveFocus();
  });

  it('previews an invite and joins the room, or opens it for a member already', async () => {
    let member = false;
    const api = chatApi({
      ...emptyRoom(9),
      'GET /api/chat/rooms': () => ({ status: 200, body: { rooms: member ? [{ ...DESK, members: 5, membership: { ...OWNER, role: 'member' } }, GENERAL] : [GENERAL] } }),
      [`GET /api/chat/invites/${CODE}`]: () => ({
        status: 200,
        body: { room: { id: 9, name: 'Options desk', description: 'Skew and flows', members: 4 }, expiresAt: '2026-11-03T10:00:00.000Z', alreadyMember: member },
      }),
      [`POST /api/chat/invites/${CODE}/accept`]: () => {
        member = true;
        return { status: 200, body: { ...DESK, members: 5, membership: { ...OWNER, role: 'member' } } };
      },
    });
    installFakeApi(signedInSession({ id: '7', name: 'Ada Lovelace' }), api);
    const router = renderApp(`/dashboard/chat/join/${CODE}`);
    const card = within(await screen.findByRole('region', { name: 'Options desk' }));
    expect(card.getByText('You are invited to')).toBeInTheDocument();
    expect(card.getByText('Skew and flows')).toBeInTheDocument();
    expect(card.getByText(/Private room · 4 members/)).toBeInTheDocument();
    fireEvent.click(card.getByRole('button', { name: 'Join room' }));
    expect(await screen.findByRole('form', { name: 'Message Options desk' })).toBeInTheDocument();
    expect(within(screen.getByRole('navigation', { name: 'Chat rooms' })).getByRole('link', { name: 'Options desk' })).toHaveAttribute('aria-current', 'page');
    expect(router.state.location.pathname).toBe('/dashboard/chat/9');
    expect(screen.queryByRole('button', { name: 'Invite people' })).toBeNull();

    await act(() => router.navigate(`/dashboard/chat/join/${CODE}`));
    const again = within(await screen.findByRole('region', { name: 'Options desk' }));
    expect(again.getByText('You are a member of')).toBeInTheDocument();
    expect(again.getByRole('link', { name: 'Open room' })).toHaveAttribute('href', '/dashboard/chat/9');
    expect(again.queryByRole('button', { name: 'Join room' })).toBeNull();
  });

  it('says an invite link is not valid: a malformed code without asking the api, an unknown one as the api answers', async () => {
    const unknown = 'AAAAAAAAAAAAAAAAAAAAAA';
    const api = chatApi({
      [`GET /api/chat/invites/${unknown}`]: () => error(404, 'unknown_invite', 'This invite link is not valid (expired, revoked or used up)'),
    });
    installFakeApi(signedInSession({ id: '7', name: 'Ada Lovelace' }), api);
    const router = renderApp('/dashboard/chat/join/088691');
    expect(await screen.findByRole('alert')).toHaveTextContent('This invite link is not valid (expired, revoked or used up).');
    expect(screen.getByRole('heading', { level: 1, name: 'Chat' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'go back to the chat rooms' })).toHaveAttribute('href', '/dashboard/chat');
    expect(api.calls.filter((call) => call.includes('/api/chat/invites'))).toEqual([]);

    await act(() => router.navigate(`/dashboard/chat/join/${unknown}`));
    await waitFor(() => expect(api.calls).toContain(`GET /api/chat/invites/${unknown}`));
    expect(await screen.findByRole('alert')).toHaveTextContent('This invite link is not valid (expired, revoked or used up).');
    expect(screen.queryByRole('button', { name: 'Join room' })).toBeNull();
  });

  it('lets the owner make a member a moderator and remove them, and shows it in the audit log', async () => {
    const sent: unknown[] = [];
    const api = chatApi({
      'GET /api/chat/rooms': () => ({ status: 200, body: { rooms: [{ ...BTC, membership: { ...BTC.membership!, role: 'owner' } }, GENERAL] } }),
      'POST /api/chat/rooms/2/moderation': (_path, init) => {
        sent.push(bodyOf(init));
        return sent.length === 2 ? error(409, 'role_unchanged', 'That member is not a moderator', [{ field: 'userId', message: 'That member is not a moderator' }]) : { status: 201, body: {} };
      },
      'GET /api/chat/rooms/2/reports': () => ({ status: 200, body: { reports: [] } }),
      'GET /api/chat/rooms/2/audit': () => ({
        status: 200,
        body: { entries: [{ id: 4, action: 'promote', moderator: ADA, target: GRACE, messageId: null, rule: null, reason: null, until: null, createdAt: '2026-11-02T10:06:00.000Z' }], nextCursor: null },
      }),
    });
    installFakeApi(signedInSession({ id: '7', name: 'Ada Lovelace' }), api);
    renderApp('/dashboard/chat/2');
    const log = await screen.findByRole('list', { name: 'Messages in BTC/USDT' });
    const grace = within(log.querySelector<HTMLElement>('[data-message-id="101"]')!);
    fireEvent.click(grace.getByText('More'));
    fireEvent.click(grace.getByRole('menuitem', { name: 'Make moderator' }));
    expect(await screen.findByText('Grace Hopper is now a moderator of BTC/USDT.')).toBeInTheDocument();
    expect(sent[0]).toEqual({ action: 'promote', userId: 8 });

    fireEvent.click(grace.getByRole('menuitem', { name: 'Remove moderator' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Grace Hopper was not removed as a moderator: That member is not a moderator');
    expect(sent[1]).toEqual({ action: 'demote', userId: 8 });
    // Ada's own message offers no appointment.
    expect(within(log.querySelector<HTMLElement>('[data-message-id="100"]')!).queryByRole('menuitem', { name: 'Make moderator' })).toBeNull();

    fireEvent.click(screen.getByRole('button', { name: 'Moderation' }));
    fireEvent.click(screen.getByRole('button', { name: 'Audit log' }));
    expect(await screen.findByText(/Appointed moderator Grace Hopper/)).toBeInTheDocument();
  });

  it("lists the room's members by role, shows a moderator their sanctions, and lets the owner appoint from the list", async () => {
    const sent: unknown[] = [];
    let promoted = false;
    const page = () => ({
      status: 200,
      body: {
        members: [
          { user: ADA, role: 'owner', joinedAt: '2026-11-01T10:00:00.000Z', mutedUntil: null, bannedUntil: null },
          { user: GRACE, role: promoted ? 'moderator' : 'member', joinedAt: '2026-11-01T11:00:00.000Z', mutedUntil: null, bannedUntil: null },
          { user: { id: 9, name: 'Pump Signals' }, role: 'member', joinedAt: '2026-11-01T12:00:00.000Z', mutedUntil: null, bannedUntil: 'infinity' },
        ],
        nextCursor: null,
      },
    });
    const api = chatApi({
      'GET /api/chat/rooms': () => ({ status: 200, body: { rooms: [{ ...BTC, membership: { ...BTC.membership!, role: 'owner' } }, GENERAL] } }),
      'GET /api/chat/rooms/2/members': page,
      'POST /api/chat/rooms/2/moderation': (_path, init) => {
        sent.push(bodyOf(init));
        promoted = true;
        return { status: 201, body: {} };
      },
    });
    installFakeApi(signedInSession({ id: '7', name: 'Ada Lovelace' }), api);
    renderApp('/dashboard/chat/2');
    await screen.findByRole('list', { name: 'Messages in BTC/USDT' });
    fireEvent.click(screen.getByRole('button', { name: 'Members' }));
    const list = await screen.findByRole('list', { name: 'Members of the room' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([
      'Ada Lovelace (you) · Owner',
      'Grace Hopper' + 'Make moderator' + 'Make owner…',
      'Pump Signals' + 'Banned permanently',
    ]);
    fireEvent.click(within(list).getByRole('button', { name: 'Make moderator: Grace Hopper' }));
    expect(await screen.findByText('Grace Hopper is now a moderator.')).toBeInTheDocument();
    expect(sent).toEqual([{ action: 'promote', userId: 8 }]);
    expect(await within(list).findByRole('button', { name: 'Remove moderator: Grace Hopper' })).toBeInTheDocument();
    expect(within(list).getAllByRole('listitem')[1]!.textContent).toContain('Grace Hopper · Moderator');

    // Handing the room over asks first.
    fireEvent.click(within(list).getByRole('button', { name: 'Make owner: Grace Hopper' }));
    const confirm = within(list).getByRole('group', { name: 'Hand the room over to Grace Hopper' });
    expect(confirm).toHaveTextContent('Grace Hopper becomes the room’s owner; you become a moderator');
    fireEvent.click(within(confirm).getByRole('button', { name: 'Hand over to Grace Hopper' }));
    expect(await screen.findByText('Grace Hopper owns the room now; you are a moderator.')).toBeInTheDocument();
    expect(sent).toEqual([{ action: 'promote', userId: 8 }, { action: 'transfer_ownership', userId: 8 }]);
  });

  it('hides the owner tools from members, and invites from public rooms', async () => {
    const api = chatApi({ ...emptyRoom(1), 'GET /api/chat/rooms': () => ({ status: 200, body: { rooms: [BTC, { ...GENERAL, membership: { ...OWNER } }] } }) });
    installFakeApi(signedInSession({ id: '7', name: 'Ada Lovelace' }), api);
    const router = renderApp('/dashboard/chat/2');
    await screen.findByRole('list', { name: 'Messages in BTC/USDT' });
    expect(screen.queryByRole('button', { name: 'Room settings' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Invite people' })).toBeNull();
    expect(screen.queryByRole('menuitem', { name: 'Make moderator' })).toBeNull();

    await act(() => router.navigate('/dashboard/chat/1'));
    expect(await screen.findByRole('button', { name: 'Room settings' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Invite people' })).toBeNull();
  });
});

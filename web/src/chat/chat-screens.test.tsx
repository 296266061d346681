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

// The open room: its header (pair price, members online, the 24 h bull/bear split, notifications,
// join/leave, moderation, the owner's room settings, a private room's invite links), the messages
// (opened at the first unread behind a "new messages" divider, older ones on scroll or button, live
// ones from the stream), the typing line and the composer; threads, the moderators' tools and the
// invite links in the side panel. The owner appoints moderators from a message's menu.
import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { ChatMessageView, ChatNotifyLevel, ChatPresenceView, ChatRoomView, ChatSentimentView, ChatStreamEvent, ChatUserRef } from '@tickerbell/jobs/chat/shapes';
import { messageOf } from '../accounts/auth-client';
import { formatChangePercent, formatPrice, changeDirection } from '../prices/markets-client';
import { useLiveQuotes } from '../prices/use-live-quotes';
import {
  addReaction,
  applyToMessage,
  blockUser,
  cashtagQuoteSymbol,
  deleteMessage,
  editMessage,
  formatUntil,
  getMessages,
  getPresence,
  getSentiment,
  joinRoom,
  leaveRoom,
  markRead,
  mergeMessages,
  moderate,
  pairSymbol,
  parseChatEvent,
  postMessage,
  removeReaction,
  sendHeartbeat,
  sendTyping,
  sentimentSplit,
  setRoomNotify,
  toggleReaction,
  typingSentence,
  type CashtagPrice,
  type HistoryCursor,
} from './chat-client';
import { Composer, MessageItem, type MessageActions } from './chat-parts';
import { subscribeChatEvents, subscribeStreamOpen } from './chat-stream';
import { ChatThreadPanel } from './chat-thread-panel';
import { MembersPanel } from './chat-members-panel';
import { ModerationPanel, ReportDialog, SanctionDialog } from './chat-moderation';
import { InvitesPanel } from './chat-invites-panel';
import { DeleteRoomDialog, RoomSettingsDialog } from './chat-room-dialogs';

const HEARTBEAT_MS = 30_000;
const TYPING_SHOWN_MS = 6_000;
const TYPING_SEND_EVERY_MS = 3_000;
/** Within this many pixels of the bottom, new messages keep the view at the bottom. */
const NEAR_BOTTOM = 80;

interface Loaded {
  messages: ChatMessageView[];
  hasOlder: boolean;
  hasNewer: boolean;
  prices: Record<string, CashtagPrice>;
}

type LoadState = { state: 'loading' } | { state: 'failed'; message: string } | { state: 'ready' };

const NOTIFY_CHOICES: { value: string; label: string }[] = [
  { value: 'all', label: 'All messages' },
  { value: 'mentions', label: 'Mentions and replies' },
  { value: 'mute:60', label: 'Mute for 1 hour' },
  { value: 'mute:480', label: 'Mute for 8 hours' },
  { value: 'mute:forever', label: 'Mute until I unmute' },
];

function notifyValue(membership: NonNullable<ChatRoomView['membership']>, now = Date.now()): string {
  if (membership.notifyLevel !== 'mute') return membership.notifyLevel;
  if (membership.mutedUntil === null) return 'mute:forever';
  return Date.parse(membership.mutedUntil) > now ? 'mute:current' : 'all';
}

/** The room's notification level: all, mentions and replies only, or muted for a while. */
function NotifySelect({ room, onChange }: { room: ChatRoomView; onChange: (level: ChatNotifyLevel, mutedUntil: string | null) => void }) {
  const membership = room.membership!;
  const value = notifyValue(membership);
  return (
    <label className="chat-notify">
      <span className="chat-notify__label">Notify</span>
      <select
        className="form-field__input chat-notify__select"
        value={value}
        onChange={(event) => {
          const choice = event.target.value;
          if (choice === 'all' || choice === 'mentions') return onChange(choice, null);
          if (choice === 'mute:forever') return onChange('mute', null);
          const minutes = Number(choice.split(':')[1]);
          if (Number.isFinite(minutes)) onChange('mute', new Date(Date.now() + minutes * 60_000).toISOString());
        }}
      >
        {value === 'mute:current' && <option value="mute:current">Muted {formatUntil(membership.mutedUntil)}</option>}
        {NOTIFY_CHOICES.map((choice) => (
          <option key={choice.value} value={choice.value}>
            {choice.label}
          </option>
        ))}
      </select>
    </label>
  );
}

function SentimentSplit({ view }: { view: ChatSentimentView | null }) {
  if (!view) return null;
  const split = sentimentSplit(view);
  if (!split) return <span className="chat-split chat-split--empty">No bull/bear tags in 24 h</span>;
  return (
    <span className="chat-split" title={`${view.bullish} bullish and ${view.bearish} bearish tagged messages in the last 24 hours`}>
      <span className="chat-split__label chat-up">{split.bullish}% bull</span>
      <span className="chat-split__bar" aria-hidden="true">
        <span className="chat-split__bull" style={{ width: `${split.bullish}%` }} />
      </span>
      <span className="chat-split__label chat-down">{split.bearish}% bear</span>
      <span className="visually-hidden"> over the last 24 hours ({split.total} tagged)</span>
    </span>
  );
}

function PairPrice({ quote }: { quote: { price: string; change24hPercent: string | null } | undefined }) {
  if (!quote) return null;
  const direction = changeDirection(quote.change24hPercent);
  return (
    <span className="chat-pair-price">
      <span className="chat-pair-price__value">{formatPrice(quote.price)}</span>{' '}
      <span className={direction > 0 ? 'chat-up' : direction < 0 ? 'chat-down' : 'chat-muted'}>{formatChangePercent(quote.change24hPercent)}</span>
    </span>
  );
}

function Online({ presence }: { presence: ChatPresenceView | null }) {
  if (!presence) return null;
  const online = presence.online;
  if (online.length === 0) return <span className="chat-muted">Nobody online</span>;
  return (
    <details className="chat-online">
      <summary>
        <span className="chat-online__dot" aria-hidden="true" /> {online.length} online
      </summary>
      <ul className="chat-online__list">
        {online.map((user) => (
          <li key={user.id}>{user.name}</li>
        ))}
      </ul>
    </details>
  );
}

export interface ChatRoomProps {
  room: ChatRoomView;
  viewer: ChatUserRef | null;
  /** The message to open at (a mention's link), else the first unread. */
  focusMessageId: string | null;
  onRoomChange: (change: (room: ChatRoomView) => ChatRoomView) => void;
  /** Membership changed on the server (join, leave): the room list is read again. */
  onMembershipChanged: () => void;
  /** The owner deleted the room (the page leaves it). */
  onDeleted: () => void;
  onBack: () => void;
}

export function ChatRoom({ room, viewer, focusMessageId, onRoomChange, onMembershipChanged, onDeleted, onBack }: ChatRoomProps) {
  const viewerId = viewer?.id ?? null;
  const member = room.membership !== null;
  const isOwner = room.membership?.role === 'owner';
  const isModerator = isOwner || room.membership?.role === 'moderator';
  const canInvite = isModerator && room.isPrivate;
  const moderationMuted = room.membership?.moderationMutedUntil && Date.parse(room.membership.moderationMutedUntil) > Date.now() ? room.membership.moderationMutedUntil : null;
  const canPost = member && !moderationMuted;

  const [loaded, setLoaded] = useState<Loaded>({ messages: [], hasOlder: false, hasNewer: false, prices: {} });
  const [load, setLoad] = useState<LoadState>({ state: 'loading' });
  const [attempt, setAttempt] = useState(0);
  const [firstUnreadId, setFirstUnreadId] = useState<string | null>(null);
  const [loadingOlder, setLoadingOlder] = useState(false);
  const [presence, setPresence] = useState<ChatPresenceView | null>(null);
  const [sentiment, setSentiment] = useState<ChatSentimentView | null>(null);
  const [typing, setTyping] = useState<ReadonlyMap<number, { name: string; until: number }>>(new Map());
  const [side, setSide] = useState<{ kind: 'thread'; rootId: string } | { kind: 'moderation' } | { kind: 'invites' } | { kind: 'members' } | null>(null);
  const [dialog, setDialog] = useState<{ kind: 'report'; message: ChatMessageView } | { kind: 'sanction'; message: ChatMessageView; action: 'mute' | 'ban' } | { kind: 'settings' } | { kind: 'delete' } | null>(null);
  const [notice, setNotice] = useState<{ text: string; error: boolean } | null>(null);
  const [newBelow, setNewBelow] = useState(0);
  const [membershipBusy, setMembershipBusy] = useState(false);

  const listRef = useRef<HTMLDivElement>(null);
  const loadedRef = useRef(loaded);
  loadedRef.current = loaded;
  const scrollAnchor = useRef<{ kind: 'bottom' } | { kind: 'keep'; height: number; top: number } | { kind: 'message'; id: string } | null>(null);
  const lastTypingSent = useRef(0);
  const lastMarked = useRef<bigint>(room.membership?.lastReadMessageId ? BigInt(room.membership.lastReadMessageId) : 0n);
  const markTimer = useRef<number | undefined>(undefined);
  /** The newest message of the room seen here, thread replies included (they count as unread too). */
  const newestSeen = useRef<bigint>(0n);
  const see = (id: string) => {
    const value = BigInt(id);
    if (value > newestSeen.current) newestSeen.current = value;
  };

  // Live prices: the pair's, and each cashtag's USDT pair (the page's `prices` until one arrives).
  const pair = room.tradingPair ? pairSymbol(room.tradingPair) : null;
  const cashtags = useMemo(() => [...new Set(loaded.messages.flatMap((message) => message.cashtags))].sort(), [loaded.messages]);
  const { quotes } = useLiveQuotes(useMemo(() => [...(pair ? [pair] : []), ...cashtags.map(cashtagQuoteSymbol)], [pair, cashtags.join(',')]));
  const prices = useMemo(() => {
    const merged: Record<string, CashtagPrice> = { ...loaded.prices };
    for (const symbol of cashtags) {
      const live = quotes.get(cashtagQuoteSymbol(symbol)) ?? quotes.get(symbol);
      if (live) merged[symbol] = { price: live.quote.price, change24hPercent: live.quote.change24hPercent };
    }
    return merged;
  }, [loaded.prices, cashtags, quotes]);

  const isNearBottom = () => {
    const list = listRef.current;
    return !list || list.scrollHeight - list.scrollTop - list.clientHeight < NEAR_BOTTOM;
  };

  /** Marks the newest loaded message read (at most twice a second, and only when the tab is seen). */
  const scheduleMarkRead = useCallback(() => {
    if (!room.membership || markTimer.current !== undefined) return;
    markTimer.current = window.setTimeout(() => {
      markTimer.current = undefined;
      const newestId = newestSeen.current;
      if (newestId === 0n || loadedRef.current.hasNewer || document.visibilityState === 'hidden') return;
      if (newestId <= lastMarked.current) return;
      lastMarked.current = newestId;
      const newest = newestId.toString();
      onRoomChange((current) => ({ ...current, unread: 0, mentions: 0, membership: current.membership && { ...current.membership, lastReadMessageId: newest } }));
      markRead(room.id, newest).catch(() => {
        lastMarked.current = 0n;
      });
    }, 400);
  }, [room.id, member]);

  useEffect(() => () => window.clearTimeout(markTimer.current), []);

  // The first page: around the message asked for, at the first unread, or the latest.
  useEffect(() => {
    const controller = new AbortController();
    setLoad({ state: 'loading' });
    setSide(null);
    setNewBelow(0);
    const cursor: HistoryCursor = focusMessageId ? { around: focusMessageId } : member && room.unread > 0 ? { around: 'unread' } : {};
    getMessages(room.id, cursor, controller.signal)
      .then((page) => {
        setLoaded({ messages: page.messages, hasOlder: page.hasOlder, hasNewer: page.hasNewer, prices: page.prices ?? {} });
        for (const message of page.messages) see(message.id);
        const unreadId = focusMessageId ? null : page.firstUnreadId;
        setFirstUnreadId(unreadId);
        scrollAnchor.current = focusMessageId ? { kind: 'message', id: focusMessageId } : unreadId ? { kind: 'message', id: unreadId } : { kind: 'bottom' };
        setLoad({ state: 'ready' });
      })
      .catch((error: unknown) => {
        if (!controller.signal.aborted) setLoad({ state: 'failed', message: messageOf(error) });
      });
    return () => controller.abort();
    // The room's membership changing reloads too (a join shows the room as a member sees it).
  }, [room.id, focusMessageId, member, attempt]);

  useEffect(() => {
    if (load.state === 'ready') scheduleMarkRead();
  }, [load.state, scheduleMarkRead]);

  // Presence and the bull/bear split: once per room; then events.
  useEffect(() => {
    const controller = new AbortController();
    setPresence(null);
    setSentiment(null);
    getPresence(room.id, controller.signal).then(setPresence, () => undefined);
    getSentiment(room.id, controller.signal).then(setSentiment, () => undefined);
    return () => controller.abort();
  }, [room.id]);

  // Presence heartbeat while a member has the room open.
  useEffect(() => {
    if (!member) return;
    const beat = () => void sendHeartbeat(room.id).catch(() => undefined);
    beat();
    const timer = window.setInterval(beat, HEARTBEAT_MS);
    return () => window.clearInterval(timer);
  }, [room.id, member]);

  // Typing names fade out.
  useEffect(() => {
    if (typing.size === 0) return;
    const next = Math.min(...[...typing.values()].map((entry) => entry.until));
    const timer = window.setTimeout(() => setTyping((current) => new Map([...current].filter(([, entry]) => entry.until > Date.now()))), Math.max(50, next - Date.now()));
    return () => window.clearTimeout(timer);
  }, [typing]);

  // Scrolling after a render: to the bottom, to a message, or keeping the view when older ones are added above.
  useLayoutEffect(() => {
    const list = listRef.current;
    const anchor = scrollAnchor.current;
    if (!list || !anchor) return;
    scrollAnchor.current = null;
    if (anchor.kind === 'bottom') list.scrollTop = list.scrollHeight;
    else if (anchor.kind === 'keep') list.scrollTop = anchor.top + (list.scrollHeight - anchor.height);
    else {
      const target = list.querySelector<HTMLElement>(`[data-message-id="${anchor.id}"]`);
      const divider = list.querySelector<HTMLElement>('.chat-divider');
      const element = divider ?? target;
      if (element) list.scrollTop = Math.max(0, element.offsetTop - list.offsetTop - 24);
      else list.scrollTop = list.scrollHeight;
    }
  });

  // Live events of this room.
  useEffect(
    () =>
      subscribeChatEvents((raw) => {
        const event: ChatStreamEvent | null = parseChatEvent(raw);
        if (!event || event.roomId !== room.id) return;
        switch (event.kind) {
          case 'message': {
            const message = event.message;
            see(message.id);
            // Replies live in their thread; the room shows roots. With newer pages not loaded, a live one would leave a gap.
            const appended = !message.replyToMessageId && !loadedRef.current.hasNewer;
            if (appended && !loadedRef.current.messages.some((existing) => existing.id === message.id)) {
              if (isNearBottom() || message.author?.id === viewerId) scrollAnchor.current = { kind: 'bottom' };
              else setNewBelow((n) => n + 1);
            }
            setLoaded((current) => {
              const messages = current.messages.map((existing) => applyToMessage(existing, event, viewerId));
              return appended && !current.hasNewer ? { ...current, messages: mergeMessages(messages, [message]) } : { ...current, messages };
            });
            setTyping((current) => {
              if (!message.author || !current.has(message.author.id)) return current;
              const next = new Map(current);
              next.delete(message.author.id);
              return next;
            });
            if (message.sentiment && !message.replyToMessageId) setSentiment((current) => current && { ...current, [message.sentiment!]: current[message.sentiment!] + 1 });
            if (message.author?.id !== viewerId) scheduleMarkRead();
            return;
          }
          case 'edited':
          case 'deleted':
          case 'reactions':
          case 'thread':
            setLoaded((current) => ({ ...current, messages: current.messages.map((message) => applyToMessage(message, event, viewerId)) }));
            return;
          case 'typing':
            if (event.user.id === viewerId) return;
            setTyping((current) => new Map(current).set(event.user.id, { name: event.user.name, until: Date.now() + TYPING_SHOWN_MS }));
            return;
          case 'presence':
            setPresence({ online: event.online });
            return;
          case 'read':
          case 'member':
          case 'standing':
          case 'room':
            return;
        }
      }),
    [room.id, viewerId, scheduleMarkRead],
  );

  // After the stream reconnects: what was posted while it was down.
  useEffect(
    () =>
      subscribeStreamOpen(() => {
        const current = loadedRef.current;
        const newest = current.messages.at(-1);
        if (!newest || current.hasNewer) return;
        getMessages(room.id, { after: newest.id })
          .then((page) => {
            for (const message of page.messages) see(message.id);
            const roots = page.messages.filter((message) => !message.replyToMessageId);
            if (roots.length && isNearBottom()) scrollAnchor.current = { kind: 'bottom' };
            setLoaded((latest) => ({ ...latest, messages: mergeMessages(latest.messages, roots), prices: { ...latest.prices, ...page.prices } }));
            scheduleMarkRead();
          })
          .catch(() => undefined);
      }),
    [room.id, scheduleMarkRead],
  );

  const loadOlder = () => {
    const oldest = loaded.messages[0];
    if (!oldest || loadingOlder || !loaded.hasOlder) return;
    setLoadingOlder(true);
    getMessages(room.id, { before: oldest.id })
      .then((page) => {
        const list = listRef.current;
        if (list) scrollAnchor.current = { kind: 'keep', height: list.scrollHeight, top: list.scrollTop };
        setLoaded((current) => ({ ...current, messages: mergeMessages(current.messages, page.messages), hasOlder: page.hasOlder, prices: { ...page.prices, ...current.prices } }));
      })
      .catch((error: unknown) => setNotice({ text: `Older messages could not be loaded: ${messageOf(error)}`, error: true }))
      .finally(() => setLoadingOlder(false));
  };

  const loadNewer = () => {
    const newest = loaded.messages.at(-1);
    if (!newest) return;
    getMessages(room.id, { after: newest.id })
      .then((page) => {
        for (const message of page.messages) see(message.id);
        setLoaded((current) => ({ ...current, messages: mergeMessages(current.messages, page.messages.filter((message) => !message.replyToMessageId)), hasNewer: page.hasNewer, prices: { ...current.prices, ...page.prices } }));
        if (!page.hasNewer) scrollAnchor.current = { kind: 'bottom' };
        scheduleMarkRead();
      })
      .catch((error: unknown) => setNotice({ text: `Newer messages could not be loaded: ${messageOf(error)}`, error: true }));
  };

  const replaceMessage = (message: ChatMessageView) => setLoaded((current) => ({ ...current, messages: current.messages.map((existing) => (existing.id === message.id ? message : existing)) }));
  const fail = (what: string) => (error: unknown) => setNotice({ text: `${what}: ${messageOf(error)}`, error: true });

  const actions: MessageActions = {
    onReply: (message) => setSide({ kind: 'thread', rootId: message.id }),
    onToggleReaction: (message, reaction) => {
      const mine = message.reactions.find((entry) => entry.reaction === reaction)?.mine ?? false;
      const apply = (change: (m: ChatMessageView) => ChatMessageView) =>
        setLoaded((current) => ({ ...current, messages: current.messages.map((existing) => (existing.id === message.id ? change(existing) : existing)) }));
      apply((existing) => ({ ...existing, reactions: toggleReaction(existing.reactions, reaction) }));
      (mine ? removeReaction(message.id, reaction) : addReaction(message.id, reaction)).catch((error: unknown) => {
        apply((existing) => ({ ...existing, reactions: toggleReaction(existing.reactions, reaction) }));
        fail('The reaction was not saved')(error);
      });
    },
    onEdit: async (message, text) => replaceMessage(await editMessage(message.id, text)),
    onDelete: (message) =>
      deleteMessage(message.id)
        .then(() => replaceMessage({ ...message, deleted: true, deletedBy: 'author', text: '', reactions: [] }))
        .catch(fail('The message was not deleted')),
    onReport: (message) => setDialog({ kind: 'report', message }),
    onBlock: (message) => {
      if (!message.author) return;
      const { id, name } = message.author;
      blockUser(id)
        .then(() => {
          setLoaded((current) => ({ ...current, messages: current.messages.filter((existing) => existing.author?.id !== id) }));
          setNotice({ text: `You blocked ${name}: their messages are hidden for you. Unblock them in the chat settings.`, error: false });
        })
        .catch(fail(`${name} was not blocked`));
    },
    ...(isModerator
      ? {
          moderation: {
            onDelete: (message: ChatMessageView) =>
              moderate(room.id, { action: 'delete_message', messageId: message.id, rule: 'other' })
                .then(() => replaceMessage({ ...message, deleted: true, deletedBy: 'moderator', text: '', reactions: [] }))
                .catch(fail('The message was not deleted')),
            onSanction: (message: ChatMessageView, action: 'mute' | 'ban') => setDialog({ kind: 'sanction', message, action }),
            ...(isOwner ? { onRole: changeRole } : {}),
          },
        }
      : {}),
  };

  /** The owner appoints a message's author as a moderator, or removes them (the api refuses a wrong one). */
  function changeRole(message: ChatMessageView, action: 'promote' | 'demote') {
    const target = message.author;
    if (!target) return;
    setNotice(null);
    moderate(room.id, { action, userId: target.id })
      .then(() =>
        setNotice({ text: action === 'promote' ? `${target.name} is now a moderator of ${room.name}.` : `${target.name} is no longer a moderator of ${room.name}.`, error: false }),
      )
      .catch(fail(action === 'promote' ? `${target.name} was not made a moderator` : `${target.name} was not removed as a moderator`));
  }

  const toggleSide = (kind: 'moderation' | 'invites' | 'members') => setSide((current) => (current?.kind === kind ? null : { kind }));

  const changeMembership = (join: boolean) => {
    setMembershipBusy(true);
    (join ? joinRoom(room.id) : leaveRoom(room.id))
      .then(onMembershipChanged)
      .catch(fail(join ? 'You could not join the room' : 'You could not leave the room'))
      .finally(() => setMembershipBusy(false));
  };

  const changeNotify = (notifyLevel: ChatNotifyLevel, mutedUntil: string | null) => {
    const before = room.membership;
    onRoomChange((current) => ({ ...current, membership: current.membership && { ...current.membership, notifyLevel, mutedUntil } }));
    setRoomNotify(room.id, notifyLevel, mutedUntil).catch((error: unknown) => {
      onRoomChange((current) => ({ ...current, membership: before }));
      fail('The notification setting was not saved')(error);
    });
  };

  const typingNames = [...typing.values()].filter((entry) => entry.until > Date.now()).map((entry) => entry.name);
  const roots = loaded.messages.filter((message) => !message.replyToMessageId);
  const pairQuote = pair ? quotes.get(pair)?.quote : undefined;

  return (
    <div className={`chat-room${side ? ' chat-room--with-side' : ''}`}>
      <section className="chat-room__main" aria-labelledby={`chat-room-${room.id}`}>
        <header className="chat-room__head">
          <div className="chat-room__title">
            <button type="button" className="button button--ghost button--small chat-room__back" onClick={onBack}>
              <span aria-hidden="true">←</span> Rooms
            </button>
            <h2 id={`chat-room-${room.id}`}>{room.name}</h2>
            <PairPrice quote={pairQuote} />
          </div>
          {room.description && <p className="chat-room__description">{room.description}</p>}
          <div className="chat-room__meta">
            <span className="chat-muted">{room.members.toLocaleString('en-US')} {room.members === 1 ? 'member' : 'members'}</span>
            <Online presence={presence} />
            <SentimentSplit view={sentiment} />
          </div>
          <div className="chat-room__tools">
            {member && <NotifySelect room={room} onChange={changeNotify} />}
            <button type="button" className="button button--secondary button--small" aria-pressed={side?.kind === 'members'} onClick={() => toggleSide('members')}>
              Members
            </button>
            {isModerator && (
              <button type="button" className="button button--secondary button--small" aria-pressed={side?.kind === 'moderation'} onClick={() => toggleSide('moderation')}>
                Moderation
                {!!room.openReports && (
                  <>
                    <span className="chat-badge chat-badge--mention" aria-hidden="true">
                      {room.openReports}
                    </span>
                    <span className="visually-hidden">
                      , {room.openReports} open {room.openReports === 1 ? 'report' : 'reports'}
                    </span>
                  </>
                )}
              </button>
            )}
            {canInvite && (
              <button type="button" className="button button--secondary button--small" aria-pressed={side?.kind === 'invites'} onClick={() => toggleSide('invites')}>
                Invite people
              </button>
            )}
            {isOwner && (
              <>
                <button type="button" className="button button--secondary button--small" onClick={() => setDialog({ kind: 'settings' })}>
                  Room settings
                </button>
                <button type="button" className="button button--danger button--small" onClick={() => setDialog({ kind: 'delete' })}>
                  Delete room…
                </button>
              </>
            )}
            {member ? (
              room.membership?.role !== 'owner' && (
                <button type="button" className="button button--secondary button--small" disabled={membershipBusy} onClick={() => changeMembership(false)}>
                  Leave
                </button>
              )
            ) : (
              <button type="button" className="button button--primary button--small" disabled={membershipBusy} onClick={() => changeMembership(true)}>
                Join room
              </button>
            )}
          </div>
        </header>
        {notice && (
          <p className={notice.error ? 'form-message form-message--error chat-notice' : 'form-message chat-notice'} role={notice.error ? 'alert' : 'status'}>
            {notice.text}{' '}
            <button type="button" className="button button--ghost button--small" onClick={() => setNotice(null)}>
              Dismiss
            </button>
          </p>
        )}
        <div
          className="chat-room__scroll"
          ref={listRef}
          onScroll={(event) => {
            const list = event.currentTarget;
            if (list.scrollTop < 40 && loaded.hasOlder && !loadingOlder) loadOlder();
            if (newBelow > 0 && isNearBottom()) setNewBelow(0);
          }}
        >
          {load.state === 'failed' ? (
            <div className="form-message form-message--error request-failed" role="alert">
              <span>The messages could not be loaded: {load.message}</span>{' '}
              <button type="button" className="button button--secondary button--small" onClick={() => setAttempt((n) => n + 1)}>
                Try again
              </button>
            </div>
          ) : load.state === 'loading' ? (
            <p role="status" className="page-loading chat-room__loading">
              <span className="spinner" aria-hidden="true" /> Loading messages…
            </p>
          ) : (
            <>
              {loaded.hasOlder && (
                <button type="button" className="button button--ghost button--small chat-older" onClick={loadOlder} disabled={loadingOlder}>
                  {loadingOlder ? 'Loading older messages…' : 'Load older messages'}
                </button>
              )}
              {roots.length === 0 ? (
                <p className="empty-state chat-room__empty">{member ? 'No messages yet. Say hello: $BTC shows a price, @name mentions a member.' : 'No messages yet.'}</p>
              ) : (
                <ol className="chat-messages" aria-label={`Messages in ${room.name}`} aria-live="polite" aria-relevant="additions">
                  {roots.map((message) => (
                    <FragmentWithDivider key={message.id} divider={message.id === firstUnreadId} count={roots.length - roots.indexOf(message)}>
                      <MessageItem message={message} viewerId={viewerId} prices={prices} actions={actions} canPost={canPost} highlight={message.id === focusMessageId} />
                    </FragmentWithDivider>
                  ))}
                </ol>
              )}
              {loaded.hasNewer && (
                <button type="button" className="button button--secondary button--small chat-newer" onClick={loadNewer}>
                  Load newer messages
                </button>
              )}
            </>
          )}
        </div>
        {newBelow > 0 && (
          <button
            type="button"
            className="button button--primary button--small chat-jump"
            onClick={() => {
              scrollAnchor.current = { kind: 'bottom' };
              setNewBelow(0);
              setLoaded((current) => ({ ...current }));
            }}
          >
            {newBelow === 1 ? '1 new message' : `${newBelow} new messages`} <span aria-hidden="true">↓</span>
          </button>
        )}
        <p className="chat-typing" aria-live="polite">
          {typingSentence(typingNames)}
        </p>
        <Composer
          room={room}
          label={`Message ${room.name}`}
          placeholder={`Message ${room.name} · $BTC for a price, @name to mention`}
          disabledReason={
            !member ? (
              <p className="empty-state">
                Join the room to post.{' '}
                <button type="button" className="button button--primary button--small" disabled={membershipBusy} onClick={() => changeMembership(true)}>
                  Join {room.name}
                </button>
              </p>
            ) : moderationMuted ? (
              <p className="chat-composer__error" role="status">
                A moderator muted you in this room {formatUntil(moderationMuted)}. You can still read it.
              </p>
            ) : undefined
          }
          onTyping={() => {
            if (Date.now() - lastTypingSent.current < TYPING_SEND_EVERY_MS) return;
            lastTypingSent.current = Date.now();
            sendTyping(room.id).catch(() => undefined);
          }}
          onSend={async (text, tag) => {
            const message = await postMessage(room.id, { text, ...(tag ? { sentiment: tag } : {}) });
            scrollAnchor.current = { kind: 'bottom' };
            setLoaded((current) => (current.hasNewer ? current : { ...current, messages: mergeMessages(current.messages, [message]) }));
            if (tag) setSentiment((current) => current && { ...current, [tag]: current[tag] + 1 });
            setFirstUnreadId(null);
            see(message.id);
            lastMarked.current = BigInt(message.id);
          }}
        />
      </section>
      {side?.kind === 'thread' && (
        <ChatThreadPanel room={room} rootId={side.rootId} viewerId={viewerId} prices={prices} actions={actions} canPost={canPost} onClose={() => setSide(null)} key={side.rootId} />
      )}
      {side?.kind === 'moderation' && <ModerationPanel roomId={room.id} onClose={() => setSide(null)} onReportsChanged={onMembershipChanged} />}
      {side?.kind === 'members' && <MembersPanel roomId={room.id} viewerId={viewerId} canAppoint={isOwner} onClose={() => setSide(null)} />}
      {side?.kind === 'invites' && <InvitesPanel roomId={room.id} roomName={room.name} onClose={() => setSide(null)} />}
      {dialog?.kind === 'settings' && (
        <RoomSettingsDialog
          room={room}
          onClose={() => setDialog(null)}
          onSaved={(saved) => {
            setDialog(null);
            onRoomChange((current) => ({ ...current, name: saved.name, description: saved.description, slowModeSeconds: saved.slowModeSeconds, isPrivate: saved.isPrivate }));
            setNotice({ text: 'The room settings were saved.', error: false });
          }}
        />
      )}
      {dialog?.kind === 'delete' && <DeleteRoomDialog room={room} onClose={() => setDialog(null)} onDeleted={onDeleted} />}
      {dialog?.kind === 'report' && (
        <ReportDialog
          message={dialog.message}
          onClose={() => setDialog(null)}
          onDone={() => {
            setDialog(null);
            setNotice({ text: 'Thank you: the room’s moderators will look at the report.', error: false });
          }}
        />
      )}
      {dialog?.kind === 'sanction' && (
        <SanctionDialog
          roomId={room.id}
          message={dialog.message}
          action={dialog.action}
          onClose={() => setDialog(null)}
          onDone={(summary) => {
            setDialog(null);
            setNotice({ text: summary, error: false });
          }}
        />
      )}
    </div>
  );
}

/** A message, preceded by the "new messages" divider when it is the first unread one. */
function FragmentWithDivider({ divider, count, children }: { divider: boolean; count: number; children: React.ReactNode }) {
  if (!divider) return <>{children}</>;
  return (
    <>
      <li className="chat-divider" role="separator" aria-label={`${count} new ${count === 1 ? 'message' : 'messages'}`}>
        <span>{count === 1 ? '1 new message' : `${count} new messages`}</span>
      </li>
      {children}
    </>
  );
}

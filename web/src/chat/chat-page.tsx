// /dashboard/chat and /dashboard/chat/:roomId: the room list (unread rooms first, unread counts,
// mention badges, the live price of a pair's room) beside the open room; on a phone the two are
// panes that switch. "New room" creates a room (the viewer owns it) and opens it. The chat
// settings (sound, desktop notifications, online status, blocked members) open from the header. New messages in other rooms raise their counts live, and ring
// or show a desktop notification as the preferences and the room's notify level say.
import { useEffect, useId, useMemo, useRef, useState } from 'react';
import { Link, NavLink, useLocation, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import type { ChatPreferencesView, ChatRoomView, ChatUserRef } from '@tickerbell/jobs/chat/shapes';
import { useSession } from '../accounts/session-provider';
import { messageOf } from '../accounts/auth-client';
import { RequestFailed, shownData, useRequest } from '../api/use-request';
import { reportPlaybackError } from '../notifications/notification-sound';
import { formatChangePercent, formatPrice, changeDirection } from '../prices/markets-client';
import { useLiveQuotes } from '../prices/use-live-quotes';
import {
  CHAT_MENTIONS_PATH,
  CHAT_PATH,
  chatRoomPath,
  formatMessageTime,
  getBlocks,
  getPreferences,
  getRooms,
  pairSymbol,
  parseChatEvent,
  savePreferences,
  shouldNotify,
  unblockUser,
} from './chat-client';
import { ChatRoom } from './chat-room';
import { NewRoomDialog } from './chat-room-dialogs';
import { subscribeChatEvents } from './chat-stream';
import './chat.css';

const CHAT_SOUND = '/sounds/notification.wav';

/** The chat screens' tabs under the heading: rooms and mentions (with the unread mentions). */
export function ChatTabs({ mentions }: { mentions: number | null }) {
  const { pathname } = useLocation();
  const inRoom = /^\/dashboard\/chat\/\d+/.test(pathname);
  const tab = ({ isActive }: { isActive: boolean }) => `chat-nav__link${isActive ? ' chat-nav__link--active' : ''}`;
  return (
    <nav className="chat-nav" aria-label="Chat screens">
      <NavLink to={CHAT_PATH} end className={({ isActive }) => tab({ isActive: isActive || inRoom })} aria-current={inRoom ? 'page' : undefined}>
        Rooms
      </NavLink>
      <NavLink to={CHAT_MENTIONS_PATH} className={tab}>
        Mentions
        {mentions ? (
          <>
            {/* A generic span's aria-label is not read: the count is said by hidden text instead. */}
            <span className="chat-badge chat-badge--mention" aria-hidden="true">
              {mentions}
            </span>
            <span className="visually-hidden">, {mentions} unread</span>
          </>
        ) : null}
      </NavLink>
    </nav>
  );
}

function RoomRow({ room, active, quote }: { room: ChatRoomView; active: boolean; quote: { price: string; change24hPercent: string | null } | undefined }) {
  const direction = quote ? changeDirection(quote.change24hPercent) : 0;
  const muted = room.membership?.notifyLevel === 'mute' && (room.membership.mutedUntil === null || Date.parse(room.membership.mutedUntil) > Date.now());
  const counts = [room.unread ? `${room.unread} unread` : null, room.mentions ? `${room.mentions} ${room.mentions === 1 ? 'mention' : 'mentions'}` : null].filter(Boolean).join(', ');
  return (
    <li>
      <Link
        to={chatRoomPath(room.id)}
        className={`chat-rooms__link${active ? ' chat-rooms__link--active' : ''}${room.unread ? ' chat-rooms__link--unread' : ''}`}
        aria-current={active ? 'page' : undefined}
        aria-label={`${room.name}${counts ? `, ${counts}` : ''}${muted ? ', muted' : ''}`}
      >
        <span className="chat-rooms__name">
          {room.isPrivate && <span className="chat-rooms__private">Private · </span>}
          {room.name}
        </span>
        <span className="chat-rooms__badges">
          {room.mentions > 0 && <span className="chat-badge chat-badge--mention">@{room.mentions}</span>}
          {room.unread > 0 && <span className={muted ? 'chat-badge chat-badge--muted' : 'chat-badge'}>{room.unread > 99 ? '99+' : room.unread}</span>}
        </span>
        <span className="chat-rooms__sub">
          {quote ? (
            <>
              {formatPrice(quote.price)} <span className={direction > 0 ? 'chat-up' : direction < 0 ? 'chat-down' : undefined}>{formatChangePercent(quote.change24hPercent)}</span>
            </>
          ) : (
            (room.description ?? '')
          )}
          {muted && <span className="chat-rooms__muted"> · muted</span>}
        </span>
        {room.lastMessageAt && (
          <time className="chat-rooms__time" dateTime={room.lastMessageAt}>
            {formatMessageTime(room.lastMessageAt)}
          </time>
        )}
      </Link>
    </li>
  );
}

function ChatSettings({ preferences, onChange, onClose }: { preferences: ChatPreferencesView | null; onChange: (next: ChatPreferencesView) => void; onClose: () => void }) {
  const headingId = useId();
  const [error, setError] = useState<string | null>(null);
  const [blocks, , retryBlocks] = useRequest('chat-blocks', (signal) => getBlocks(signal));
  const [unblocked, setUnblocked] = useState<ReadonlySet<number>>(new Set());
  const shownBlocks = (shownData(blocks) ?? []).filter((user: ChatUserRef) => !unblocked.has(user.id));
  const toggle = (key: keyof ChatPreferencesView, value: boolean) => {
    if (!preferences) return;
    setError(null);
    const before = preferences;
    onChange({ ...preferences, [key]: value });
    if (key === 'desktopNotifications' && value && typeof Notification === 'function' && Notification.permission === 'default') void Notification.requestPermission();
    savePreferences({ [key]: value }).then(onChange, (failure: unknown) => {
      onChange(before);
      setError(`The setting was not saved: ${messageOf(failure)}`);
    });
  };
  const denied = typeof Notification === 'function' && Notification.permission === 'denied';
  return (
    <section className="dashboard-panel chat-settings" aria-labelledby={headingId}>
      <div className="chat-side__head">
        <h2 id={headingId}>Chat settings</h2>
        <button type="button" className="button button--ghost button--small" onClick={onClose}>
          Close
        </button>
      </div>
      {preferences === null ? (
        <p role="status" className="page-loading">
          <span className="spinner" aria-hidden="true" /> Loading your chat settings…
        </p>
      ) : (
        <fieldset className="chat-settings__options">
          <legend className="visually-hidden">Chat notifications and status</legend>
          <label className="chat-check">
            <input type="checkbox" checked={preferences.soundNotifications} onChange={(event) => toggle('soundNotifications', event.target.checked)} /> Play a sound for new messages
          </label>
          <label className="chat-check">
            <input type="checkbox" checked={preferences.desktopNotifications} onChange={(event) => toggle('desktopNotifications', event.target.checked)} /> Desktop notifications when
            Tickerbell is in the background
          </label>
          {denied && preferences.desktopNotifications && <p className="form-field__hint">Your browser blocks notifications from Tickerbell: allow them in its site settings.</p>}
          <label className="chat-check">
            <input type="checkbox" checked={preferences.showOnlineStatus} onChange={(event) => toggle('showOnlineStatus', event.target.checked)} /> Show me as online in rooms
          </label>
          <p className="form-field__hint">Each room’s own notification level (all, mentions and replies, or muted) is set in the room.</p>
        </fieldset>
      )}
      {error && (
        <p className="form-message form-message--error" role="alert">
          {error}
        </p>
      )}
      <h3 className="chat-settings__sub">Blocked members</h3>
      {blocks.state === 'failed' ? (
        <RequestFailed what="Your blocked members" message={blocks.message} onRetry={retryBlocks} />
      ) : shownBlocks.length === 0 ? (
        <p className="empty-state">{blocks.state === 'loading' ? 'Loading…' : 'Nobody. Block a member from one of their messages to hide what they write.'}</p>
      ) : (
        <ul className="chat-blocks">
          {shownBlocks.map((user) => (
            <li key={user.id}>
              {user.name}{' '}
              <button
                type="button"
                className="button button--secondary button--small"
                onClick={() =>
                  unblockUser(user.id).then(
                    () => setUnblocked((current) => new Set(current).add(user.id)),
                    (failure: unknown) => setError(`${user.name} was not unblocked: ${messageOf(failure)}`),
                  )
                }
              >
                Unblock
              </button>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** Rings and shows a desktop notification for a new message, as the preferences say. */
function ring(preferences: ChatPreferencesView | null, title: string, body: string, tag: string): void {
  if (!preferences) return;
  if (preferences.soundNotifications) {
    try {
      void new Audio(CHAT_SOUND).play().catch(reportPlaybackError);
    } catch (error) {
      reportPlaybackError(error);
    }
  }
  if (preferences.desktopNotifications && typeof Notification === 'function' && Notification.permission === 'granted' && document.visibilityState === 'hidden') {
    try {
      new Notification(title, { body, tag });
    } catch {
      // Some browsers only allow notifications from a service worker: the in-page counts still show it.
    }
  }
}

export function ChatPage() {
  const { session } = useSession();
  const viewer: ChatUserRef | null = session && Number.isInteger(Number(session.user.id)) ? { id: Number(session.user.id), name: session.user.name ?? '' } : null;
  const viewerId = viewer?.id ?? null;
  const params = useParams();
  const [search] = useSearchParams();
  const navigate = useNavigate();
  const roomId = params.roomId && /^\d+$/.test(params.roomId) ? Number(params.roomId) : null;
  const focusMessageId = search.get('message');
  const [result, update, retry] = useRequest('chat-rooms', (signal) => getRooms(signal));
  const rooms = shownData(result)?.rooms ?? null;
  const [preferences, setPreferences] = useState<ChatPreferencesView | null>(null);
  const [settingsOpen, setSettingsOpen] = useState(false);
  const [creating, setCreating] = useState(false);
  /** What became of the room that was open when it was deleted (by the viewer as its owner, or live by its owner). */
  const [gone, setGone] = useState<string | null>(null);
  const roomsRef = useRef(rooms);
  roomsRef.current = rooms;
  const roomIdRef = useRef(roomId);
  roomIdRef.current = roomId;
  const prefsRef = useRef(preferences);
  prefsRef.current = preferences;

  useEffect(() => {
    const controller = new AbortController();
    getPreferences(controller.signal).then(setPreferences, () => undefined);
    return () => controller.abort();
  }, []);

  // Opening a room puts the notice of a deleted one away.
  useEffect(() => {
    if (roomId !== null) setGone(null);
  }, [roomId]);

  /** A deleted room leaves the list; the page leaves it if it was open, saying why. */
  const leaveDeleted = (deletedId: number) => {
    const room = roomsRef.current?.find((entry) => entry.id === deletedId);
    update((current) => ({ rooms: current.rooms.filter((entry) => entry.id !== deletedId) }));
    if (deletedId !== roomIdRef.current) return;
    if (room) setGone(room.membership?.role === 'owner' ? `You deleted “${room.name}”.` : `“${room.name}” was deleted by its owner.`);
    navigate(CHAT_PATH);
  };

  // Counts of the rooms not open, live; a read in another tab re-reads the list.
  useEffect(
    () =>
      subscribeChatEvents((raw) => {
        const event = parseChatEvent(raw);
        if (!event) return;
        if (event.kind === 'read' && event.userId === viewerId && event.roomId !== roomId) return retry();
        // Muted, unmuted, made or unmade a moderator: the room's membership is read again.
        if (event.kind === 'standing') return event.userId === viewerId ? retry() : undefined;
        if (event.kind === 'room' && event.deleted) return leaveDeleted(event.roomId);
        // The room's name, description or slow mode changed.
        if (event.kind === 'room') return retry();
        if (event.kind === 'member') {
          if (event.userId === viewerId) return retry();
          return update((current) => ({ rooms: current.rooms.map((entry) => (entry.id === event.roomId ? { ...entry, members: Math.max(0, entry.members + (event.joined ? 1 : -1)) } : entry)) }));
        }
        if (event.kind !== 'message') return;
        const room = roomsRef.current?.find((entry) => entry.id === event.roomId);
        if (!room?.membership || event.message.author?.id === viewerId) return;
        const mentioned = viewerId !== null && event.message.mentions.some((user) => user.id === viewerId);
        const open = event.roomId === roomId && document.visibilityState === 'visible';
        if (!open) {
          update((current) => ({
            rooms: current.rooms.map((entry) =>
              entry.id === event.roomId ? { ...entry, unread: entry.unread + 1, mentions: entry.mentions + (mentioned ? 1 : 0), lastMessageAt: event.message.createdAt } : entry,
            ),
          }));
        }
        if (!open && shouldNotify(event.message, room, viewerId, null)) {
          ring(prefsRef.current, `${event.message.author?.name ?? 'Someone'} in ${room.name}`, event.message.text.slice(0, 140), `chat-${event.message.id}`);
        }
      }),
    [viewerId, roomId],
  );

  const openRoom = rooms?.find((room) => room.id === roomId) ?? null;
  const pairs = useMemo(() => (rooms ?? []).flatMap((room) => (room.tradingPair ? [pairSymbol(room.tradingPair)] : [])), [rooms?.map((room) => room.tradingPair).join(',')]);
  const { quotes } = useLiveQuotes(pairs);
  const mine = (rooms ?? []).filter((room) => room.membership);
  const others = (rooms ?? []).filter((room) => !room.membership);
  const mentions = rooms ? rooms.reduce((sum, room) => sum + room.mentions, 0) : null;
  const quoteOf = (room: ChatRoomView) => (room.tradingPair ? quotes.get(pairSymbol(room.tradingPair))?.quote : undefined);

  return (
    <div className={`chat-page chat-page--${roomId === null ? 'list' : 'room'}`}>
      <header className="chat-page__head">
        <h1>Chat</h1>
        <ChatTabs mentions={mentions} />
        <button type="button" className="button button--secondary button--small chat-page__settings" aria-expanded={settingsOpen} onClick={() => setSettingsOpen((open) => !open)}>
          Chat settings
        </button>
      </header>
      {settingsOpen && <ChatSettings preferences={preferences} onChange={setPreferences} onClose={() => setSettingsOpen(false)} />}
      {gone && roomId === null && (
        <p className="form-message chat-notice chat-notice--page" role="status">
          {gone}{' '}
          <button type="button" className="button button--ghost button--small" onClick={() => setGone(null)}>
            Dismiss
          </button>
        </p>
      )}
      <div className="chat-layout">
        <nav className="chat-rooms" aria-label="Chat rooms">
          <button type="button" className="button button--primary button--small chat-rooms__new" onClick={() => setCreating(true)}>
            New room
          </button>
          {result.state === 'failed' ? (
            <RequestFailed what="The rooms" message={result.message} onRetry={retry} />
          ) : rooms === null ? (
            <p role="status" className="page-loading">
              <span className="spinner" aria-hidden="true" /> Loading the rooms…
            </p>
          ) : rooms.length === 0 ? (
            <p className="empty-state">No chat rooms yet: make the first one with New room.</p>
          ) : (
            <>
              <h2 className="chat-rooms__heading">Your rooms</h2>
              {mine.length === 0 ? (
                <p className="empty-state chat-rooms__empty">You have not joined a room yet: open one below and join it.</p>
              ) : (
                <ul className="chat-rooms__list">
                  {mine.map((room) => (
                    <RoomRow key={room.id} room={room} active={room.id === roomId} quote={quoteOf(room)} />
                  ))}
                </ul>
              )}
              {others.length > 0 && (
                <>
                  <h2 className="chat-rooms__heading">More rooms</h2>
                  <ul className="chat-rooms__list">
                    {others.map((room) => (
                      <RoomRow key={room.id} room={room} active={room.id === roomId} quote={quoteOf(room)} />
                    ))}
                  </ul>
                </>
              )}
            </>
          )}
        </nav>
        <div className="chat-layout__room">
          {roomId === null ? (
            result.state === 'failed' ? null : (
            <div className="chat-placeholder">
              <p>Pick a room to read it, or make your own with New room. Rooms with unread messages come first; @ counts the messages that mention you or reply to you.</p>
            </div>
            )
          ) : openRoom ? (
            <ChatRoom
              key={openRoom.id}
              room={openRoom}
              viewer={viewer}
              focusMessageId={focusMessageId && /^\d+$/.test(focusMessageId) ? focusMessageId : null}
              onRoomChange={(change) => update((current) => ({ rooms: current.rooms.map((room) => (room.id === openRoom.id ? change(room) : room)) }))}
              onMembershipChanged={retry}
              onDeleted={() => leaveDeleted(openRoom.id)}
              onBack={() => navigate(CHAT_PATH)}
            />
          ) : rooms !== null && result.state === 'ready' ? (
            <div className="chat-placeholder">
              <p>This room does not exist, or it is private and you are not a member.</p>
              <Link to={CHAT_PATH}>Back to the rooms</Link>
            </div>
          ) : result.state === 'failed' ? null : (
            <p role="status" className="page-loading">
              <span className="spinner" aria-hidden="true" /> Loading the room…
            </p>
          )}
        </div>
      </div>
      {creating && (
        <NewRoomDialog
          onClose={() => setCreating(false)}
          onCreated={(room) => {
            setCreating(false);
            if (result.state === 'ready') update((current) => ({ rooms: [room, ...current.rooms.filter((entry) => entry.id !== room.id)] }));
            else retry();
            navigate(chatRoomPath(room.id));
          }}
        />
      )}
    </div>
  );
}

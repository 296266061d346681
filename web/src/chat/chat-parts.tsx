// Pieces shared by the room and the thread panel: a message (text with cashtag price badges and
// highlighted mentions, always rendered as text), its reactions and actions, and the composer with
// its 2,000-character counter, bullish/bearish toggle and the wait the api asks for.
import { useEffect, useId, useRef, useState, type FormEvent, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import type { ChatMessageView, ChatRoomView, ChatSentiment } from '@tickerbell/jobs/chat/shapes';
import { formatChangePercent, formatPrice, changeDirection } from '../prices/markets-client';
import {
  MESSAGE_MAX,
  formatFull,
  formatMessageTime,
  formatWait,
  postErrorMessage,
  splitMessage,
  type CashtagPrice,
} from './chat-client';

/** Quick reactions offered under a message (any emoji of up to 10 characters is accepted by the api). */
export const QUICK_REACTIONS = ['👍', '🚀', '🔥', '😂', '👀', '🐂', '🐻', '💎'] as const;

/** A cashtag with its latest price and 24 h change, when known. */
export function CashtagBadge({ symbol, text, price }: { symbol: string; text: string; price: CashtagPrice | undefined }) {
  const direction = price ? changeDirection(price.change24hPercent) : 0;
  return (
    <span className="chat-cashtag" title={price ? `${symbol}: ${formatPrice(price.price)} (${formatChangePercent(price.change24hPercent)} in 24 h)` : `${symbol}: no price yet`}>
      <span className="chat-cashtag__symbol">{text.toUpperCase()}</span>
      {price && (
        <>
          <span className="chat-cashtag__price">{formatPrice(price.price)}</span>
          <span className={`chat-cashtag__change${direction > 0 ? ' chat-up' : direction < 0 ? ' chat-down' : ''}`}>{formatChangePercent(price.change24hPercent)}</span>
        </>
      )}
    </span>
  );
}

/** The message's text: plain text, cashtag badges and mentions (the viewer's own stronger). */
export function MessageText({ message, prices, viewerId }: { message: ChatMessageView; prices: Readonly<Record<string, CashtagPrice>>; viewerId: number | null }) {
  return (
    <p className="chat-message__text">
      {splitMessage(message).map((part, i) => {
        if (part.kind === 'text') return <span key={i}>{part.text}</span>;
        if (part.kind === 'cashtag') return <CashtagBadge key={i} symbol={part.symbol} text={part.text} price={prices[part.symbol]} />;
        return (
          <span key={i} className={part.user?.id === viewerId ? 'chat-mention chat-mention--me' : 'chat-mention'}>
            {part.text}
          </span>
        );
      })}
    </p>
  );
}

export function SentimentTag({ sentiment }: { sentiment: ChatSentiment }) {
  return <span className={`chat-tag chat-tag--${sentiment}`}>{sentiment === 'bullish' ? 'Bullish' : 'Bearish'}</span>;
}

export interface MessageActions {
  onReply?: (message: ChatMessageView) => void;
  onToggleReaction: (message: ChatMessageView, reaction: string) => void;
  onEdit: (message: ChatMessageView, text: string) => Promise<void>;
  onDelete: (message: ChatMessageView) => Promise<void>;
  onReport: (message: ChatMessageView) => void;
  onBlock: (message: ChatMessageView) => void;
  /** Moderators: delete someone's message, mute or ban its author; the owner also appoints (or removes) its author as a moderator. */
  moderation?: {
    onDelete: (message: ChatMessageView) => Promise<void>;
    onSanction: (message: ChatMessageView, action: 'mute' | 'ban') => void;
    onRole?: (message: ChatMessageView, action: 'promote' | 'demote') => void;
  };
}

function EditForm({ message, onSave, onCancel }: { message: ChatMessageView; onSave: (text: string) => Promise<void>; onCancel: () => void }) {
  const [value, setValue] = useState(message.text);
  const [error, setError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const id = useId();
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (value.trim() === '') return setError('A message cannot be empty: delete it instead.');
    setSaving(true);
    onSave(value.trim())
      .catch((failure: unknown) => setError(failure instanceof Error ? failure.message : 'The message could not be saved.'))
      .finally(() => setSaving(false));
  };
  return (
    <form className="chat-edit" onSubmit={submit} aria-label="Edit message">
      <label htmlFor={id} className="visually-hidden">
        Edit your message
      </label>
      <textarea
        id={id}
        className="form-field__input chat-edit__input"
        value={value}
        maxLength={MESSAGE_MAX}
        rows={2}
        onChange={(event) => setValue(event.target.value)}
        onKeyDown={(event) => {
          if (event.key === 'Escape') onCancel();
        }}
        autoFocus
      />
      {error && (
        <p className="form-field__error" role="alert">
          {error}
        </p>
      )}
      <div className="chat-edit__buttons">
        <button type="submit" className="button button--primary button--small" disabled={saving}>
          Save
        </button>
        <button type="button" className="button button--secondary button--small" onClick={onCancel}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** One message with its marks, reactions, thread summary and actions. */
export function MessageItem({
  message,
  viewerId,
  prices,
  actions,
  canPost,
  showThreadSummary = true,
  highlight = false,
}: {
  message: ChatMessageView;
  viewerId: number | null;
  prices: Readonly<Record<string, CashtagPrice>>;
  actions: MessageActions;
  /** The viewer may react and reply (a member, not banned). */
  canPost: boolean;
  showThreadSummary?: boolean;
  highlight?: boolean;
}) {
  const [editing, setEditing] = useState(false);
  const [confirming, setConfirming] = useState<'own' | 'moderator' | null>(null);
  const [busy, setBusy] = useState(false);
  const menuRef = useRef<HTMLDetailsElement>(null);
  const pickerRef = useRef<HTMLDetailsElement>(null);
  const mine = message.author !== null && message.author.id === viewerId;
  const author = message.author?.name ?? 'Tickerbell';
  const closeMenus = () => {
    if (menuRef.current) menuRef.current.open = false;
    if (pickerRef.current) pickerRef.current.open = false;
  };

  if (message.messageType === 'system') {
    return (
      <li className="chat-message chat-message--system" data-message-id={message.id}>
        <p className="chat-message__text">{message.text}</p>
        <time className="chat-message__time" dateTime={message.createdAt} title={formatFull(message.createdAt)}>
          {formatMessageTime(message.createdAt)}
        </time>
      </li>
    );
  }

  const confirmDelete = (who: 'own' | 'moderator') => {
    setBusy(true);
    const run = who === 'own' ? actions.onDelete(message) : actions.moderation!.onDelete(message);
    run.finally(() => {
      setBusy(false);
      setConfirming(null);
    });
  };

  const canAct = canPost && !message.deleted;
  const moreItems: ReactNode[] = [];
  if (!message.deleted && mine) {
    moreItems.push(
      <button key="edit" type="button" role="menuitem" onClick={() => (closeMenus(), setEditing(true))}>
        Edit
      </button>,
      <button key="delete" type="button" role="menuitem" onClick={() => (closeMenus(), setConfirming('own'))}>
        Delete
      </button>,
    );
  }
  if (!message.deleted && !mine && message.author) {
    moreItems.push(
      <button key="report" type="button" role="menuitem" onClick={() => (closeMenus(), actions.onReport(message))}>
        Report
      </button>,
      <button key="block" type="button" role="menuitem" onClick={() => (closeMenus(), actions.onBlock(message))}>
        Block {author}
      </button>,
    );
    if (actions.moderation) {
      moreItems.push(
        <button key="mod-delete" type="button" role="menuitem" onClick={() => (closeMenus(), setConfirming('moderator'))}>
          Delete as moderator
        </button>,
        <button key="mute" type="button" role="menuitem" onClick={() => (closeMenus(), actions.moderation!.onSanction(message, 'mute'))}>
          Mute {author}…
        </button>,
        <button key="ban" type="button" role="menuitem" onClick={() => (closeMenus(), actions.moderation!.onSanction(message, 'ban'))}>
          Ban {author}…
        </button>,
      );
      const onRole = actions.moderation.onRole;
      if (onRole) {
        moreItems.push(
          <button key="promote" type="button" role="menuitem" onClick={() => (closeMenus(), onRole(message, 'promote'))}>
            Make moderator
          </button>,
          <button key="demote" type="button" role="menuitem" onClick={() => (closeMenus(), onRole(message, 'demote'))}>
            Remove moderator
          </button>,
        );
      }
    }
  }

  return (
    <li className={`chat-message${mine ? ' chat-message--mine' : ''}${highlight ? ' chat-message--highlight' : ''}`} data-message-id={message.id} aria-label={`${author}, ${formatMessageTime(message.createdAt)}`}>
      <div className="chat-message__head">
        <span className="chat-message__author">{author}</span>
        <time className="chat-message__time" dateTime={message.createdAt} title={formatFull(message.createdAt)}>
          {formatMessageTime(message.createdAt)}
        </time>
        {message.sentiment && !message.deleted && <SentimentTag sentiment={message.sentiment} />}
        {message.editedAt && !message.deleted && (
          <span className="chat-message__mark" title={`Edited ${formatFull(message.editedAt)}`}>
            (edited)
          </span>
        )}
      </div>
      {message.deleted ? (
        <p className="chat-message__text chat-message__text--deleted">{message.deletedBy === 'moderator' ? 'Removed by a moderator' : 'Message deleted'}</p>
      ) : editing ? (
        <EditForm
          message={message}
          onCancel={() => setEditing(false)}
          onSave={async (value) => {
            await actions.onEdit(message, value);
            setEditing(false);
          }}
        />
      ) : (
        <MessageText message={message} prices={prices} viewerId={viewerId} />
      )}
      {confirming && (
        <div className="chat-confirm" role="group" aria-label="Confirm deletion">
          <span>{confirming === 'own' ? 'Delete this message? Replies keep it as “deleted”.' : `Delete ${author}’s message as a moderator?`}</span>
          <button type="button" className="button button--danger button--small" disabled={busy} onClick={() => confirmDelete(confirming)}>
            Delete
          </button>
          <button type="button" className="button button--secondary button--small" onClick={() => setConfirming(null)}>
            Cancel
          </button>
        </div>
      )}
      {message.reactions.length > 0 && (
        <ul className="chat-reactions" aria-label="Reactions">
          {message.reactions.map((entry) => (
            <li key={entry.reaction}>
              <button
                type="button"
                className={entry.mine ? 'chat-reaction chat-reaction--mine' : 'chat-reaction'}
                aria-pressed={entry.mine}
                aria-label={`${entry.reaction} ${entry.count}${entry.mine ? ', yours: remove' : ''}`}
                disabled={!canAct}
                onClick={() => actions.onToggleReaction(message, entry.reaction)}
              >
                <span aria-hidden="true">{entry.reaction}</span> <span aria-hidden="true">{entry.count}</span>
              </button>
            </li>
          ))}
        </ul>
      )}
      {showThreadSummary && message.replyCount > 0 && actions.onReply && (
        <button type="button" className="chat-thread-link" onClick={() => actions.onReply!(message)}>
          {message.replyCount === 1 ? '1 reply' : `${message.replyCount} replies`}
          {message.lastReplyAt && <span className="chat-thread-link__time"> · last {formatMessageTime(message.lastReplyAt)}</span>}
        </button>
      )}
      {(canAct || moreItems.length > 0) && (
        <div className="chat-message__actions">
          {canAct && actions.onReply && (
            <button type="button" className="chat-action" onClick={() => actions.onReply!(message)} aria-label={`Reply to ${author} in a thread`}>
              Reply
            </button>
          )}
          {canAct && (
            <details className="chat-menu" ref={pickerRef}>
              <summary className="chat-action" aria-label={`React to ${author}’s message`}>
                React
              </summary>
              <div className="chat-menu__list chat-menu__list--emoji" role="menu">
                {QUICK_REACTIONS.map((reaction) => (
                  <button
                    key={reaction}
                    type="button"
                    role="menuitem"
                    aria-label={`React with ${reaction}`}
                    onClick={() => {
                      closeMenus();
                      actions.onToggleReaction(message, reaction);
                    }}
                  >
                    {reaction}
                  </button>
                ))}
              </div>
            </details>
          )}
          {moreItems.length > 0 && (
            <details className="chat-menu" ref={menuRef}>
              <summary className="chat-action" aria-label={`More actions on ${author}’s message`}>
                More
              </summary>
              <div className="chat-menu__list" role="menu">
                {moreItems}
              </div>
            </details>
          )}
        </div>
      )}
    </li>
  );
}

/** Seconds left of a wait, ticking down to 0. */
export function useCountdown(): [number, (seconds: number) => void] {
  const [left, setLeft] = useState(0);
  useEffect(() => {
    if (left <= 0) return;
    const timer = window.setTimeout(() => setLeft((n) => Math.max(0, n - 1)), 1000);
    return () => window.clearTimeout(timer);
  }, [left]);
  return [left, setLeft];
}

/**
 * The composer: Enter sends, Shift+Enter starts a new line. The counter shows the length against
 * 2,000; a refused post says why and how long to wait (rate limit, slow mode), or that the member
 * is muted or banned.
 */
export function Composer({
  room,
  label,
  placeholder,
  onSend,
  onTyping,
  disabledReason,
  autoFocus = false,
}: {
  room: Pick<ChatRoomView, 'slowModeSeconds' | 'name'>;
  label: string;
  placeholder: string;
  onSend: (text: string, sentiment: ChatSentiment | null) => Promise<void>;
  onTyping?: () => void;
  /** Why the viewer cannot post here (not a member, muted...): shown instead of the form. */
  disabledReason?: ReactNode;
  autoFocus?: boolean;
}) {
  const [value, setValue] = useState('');
  const [sentiment, setSentiment] = useState<ChatSentiment | null>(null);
  const [sending, setSending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [wait, setWait] = useCountdown();
  const id = useId();
  const counterId = useId();
  const length = value.trim().length;
  const over = length > MESSAGE_MAX;

  if (disabledReason) return <div className="chat-composer chat-composer--disabled">{disabledReason}</div>;

  const send = () => {
    if (length === 0 || over || sending || wait > 0) return;
    setSending(true);
    setError(null);
    onSend(value.trim(), sentiment)
      .then(() => {
        setValue('');
        setSentiment(null);
      })
      .catch((failure: unknown) => {
        const { message, waitSeconds } = postErrorMessage(failure, room);
        setError(message);
        if (waitSeconds) setWait(waitSeconds);
      })
      .finally(() => setSending(false));
  };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>) => {
    if (event.key === 'Enter' && !event.shiftKey && !event.nativeEvent.isComposing) {
      event.preventDefault();
      send();
    }
  };
  const near = length > MESSAGE_MAX - 200;
  return (
    <form
      className="chat-composer"
      aria-label={label}
      onSubmit={(event) => {
        event.preventDefault();
        send();
      }}
    >
      <label htmlFor={id} className="visually-hidden">
        {label}
      </label>
      <textarea
        id={id}
        className="form-field__input chat-composer__input"
        value={value}
        rows={2}
        placeholder={placeholder}
        aria-describedby={counterId}
        aria-invalid={over || undefined}
        autoFocus={autoFocus}
        onChange={(event) => {
          setValue(event.target.value);
          if (event.target.value.trim() !== '') onTyping?.();
        }}
        onKeyDown={onKeyDown}
      />
      <div className="chat-composer__bar">
        <div className="chat-sentiment-toggle" role="group" aria-label="Tag your message">
          {(['bullish', 'bearish'] as const).map((choice) => (
            <button
              key={choice}
              type="button"
              className={`chat-sentiment-toggle__button chat-sentiment-toggle__button--${choice}`}
              aria-pressed={sentiment === choice}
              onClick={() => setSentiment((current) => (current === choice ? null : choice))}
            >
              {choice === 'bullish' ? 'Bullish' : 'Bearish'}
            </button>
          ))}
        </div>
        <span id={counterId} className={`chat-composer__counter${over ? ' chat-composer__counter--over' : near ? ' chat-composer__counter--near' : ''}`}>
          {length.toLocaleString('en-US')} / {MESSAGE_MAX.toLocaleString('en-US')}
          {over && <span> · {(length - MESSAGE_MAX).toLocaleString('en-US')} too many</span>}
        </span>
        <button type="submit" className="button button--primary button--small chat-composer__send" disabled={sending || length === 0 || over || wait > 0}>
          {wait > 0 ? `Wait ${formatWait(wait)}` : 'Send'}
        </button>
      </div>
      {error && (
        <p className="chat-composer__error" role="alert">
          {error}
          {wait > 0 && <> You can send again in {formatWait(wait)}.</>}
        </p>
      )}
      {room.slowModeSeconds > 0 && !error && <p className="chat-composer__hint">Slow mode: one message every {formatWait(room.slowModeSeconds)}.</p>}
    </form>
  );
}

/** A chat dialog's last row: its action (a submit button, or a plain one with `onConfirm`) and Cancel. */
export function DialogButtons({
  label,
  busyLabel,
  busy,
  danger,
  onConfirm,
  onCancel,
  cancelRef,
}: {
  label: string;
  /** Shown on the action while `busy` (else the label stays). */
  busyLabel?: string;
  busy: boolean;
  danger?: boolean;
  onConfirm?: () => void;
  onCancel: () => void;
  cancelRef?: RefObject<HTMLButtonElement | null>;
}) {
  return (
    <div className="chat-dialog__buttons">
      <button type={onConfirm ? 'button' : 'submit'} className={danger ? 'button button--danger' : 'button button--primary'} disabled={busy} onClick={onConfirm}>
        {busy && busyLabel ? busyLabel : label}
      </button>
      <button ref={cancelRef} type="button" className="button button--secondary" onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}

/**
 * A side panel takes focus when it opens (its heading: on a phone it covers the button that opened
 * it); closed, focus goes back to that button rather than falling to the page.
 */
export function usePanelFocus(headingRef: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    const opener = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    headingRef.current?.focus();
    return () => {
      const now = document.activeElement;
      if (opener?.isConnected && (now === null || now === document.body)) opener.focus();
    };
  }, []);
}

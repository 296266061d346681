// /dashboard/chat/mentions: the messages that mention the viewer and the replies to their
// messages, newest first, unread ones marked; each opens its room at the message. "Mark all read"
// clears them (the rooms' @ counts follow).
import { useState } from 'react';
import { Link } from 'react-router-dom';
import type { ChatMentionView } from '@tickerbell/jobs/chat/shapes';
import { messageOf } from '../accounts/auth-client';
import { RequestFailed, shownData, useRequest } from '../api/use-request';
import { chatRoomPath, formatFull, formatMessageTime, getMentions, markMentionsRead } from './chat-client';
import { ChatTabs } from './chat-page';
import { MessageText, SentimentTag } from './chat-parts';
import './chat.css';

function MentionItem({ mention }: { mention: ChatMentionView }) {
  const message = mention.message;
  return (
    <li className={`chat-mention-item${mention.isRead ? '' : ' chat-mention-item--unread'}`}>
      <p className="chat-mention-item__head">
        {!mention.isRead && <span className="chat-unread-dot" aria-label="Unread" role="img" />}
        <span className="chat-message__author">{message.author?.name ?? 'Tickerbell'}</span>{' '}
        <span className="chat-muted">{mention.type === 'reply' ? 'replied to you in' : 'mentioned you in'}</span>{' '}
        <Link to={`${chatRoomPath(mention.room.id)}?message=${message.id}`}>{mention.room.name}</Link>{' '}
        <time className="chat-message__time" dateTime={mention.createdAt} title={formatFull(mention.createdAt)}>
          {formatMessageTime(mention.createdAt)}
        </time>
        {message.sentiment && !message.deleted && <SentimentTag sentiment={message.sentiment} />}
      </p>
      {message.deleted ? <p className="chat-message__text chat-message__text--deleted">Message deleted</p> : <MessageText message={message} prices={{}} viewerId={null} />}
    </li>
  );
}

export function ChatMentionsPage() {
  const [cursor, setCursor] = useState<string | null>(null);
  const [pages, setPages] = useState<ChatMentionView[]>([]);
  const [result, update, retry] = useRequest(`mentions:${cursor ?? ''}`, (signal) => getMentions(cursor, signal));
  const [error, setError] = useState<string | null>(null);
  const page = shownData(result);
  // While a further page loads, the ones already shown stay (the request keeps the previous answer: not shown twice).
  const mentions = cursor === null ? (page?.mentions ?? []) : [...pages, ...(result.state === 'ready' ? result.data.mentions : [])];
  const unread = page?.unread ?? 0;

  const markAll = () => {
    setError(null);
    markMentionsRead()
      .then(() => {
        update((current) => ({ ...current, unread: 0, mentions: current.mentions.map((mention) => ({ ...mention, isRead: true })) }));
        setPages((current) => current.map((mention) => ({ ...mention, isRead: true })));
      })
      .catch((failure: unknown) => setError(`The mentions were not marked read: ${messageOf(failure)}`));
  };

  return (
    <div className="chat-page chat-page--mentions">
      <header className="chat-page__head">
        <h1>Chat</h1>
        <ChatTabs mentions={page ? unread : null} />
        {unread > 0 && (
          <button type="button" className="button button--secondary button--small chat-page__settings" onClick={markAll}>
            Mark all read
          </button>
        )}
      </header>
      <section className="dashboard-panel" aria-label="Mentions and replies">
        <h2>Mentions and replies</h2>
        {error && (
          <p className="form-message form-message--error" role="alert">
            {error}
          </p>
        )}
        {result.state === 'failed' ? (
          <RequestFailed what="Your mentions" message={result.message} onRetry={retry} />
        ) : page === null ? (
          <p role="status" className="page-loading">
            <span className="spinner" aria-hidden="true" /> Loading your mentions…
          </p>
        ) : mentions.length === 0 ? (
          <p className="empty-state">Nobody has mentioned you or replied to you yet. When someone writes @ and your name without spaces in a room you joined, or replies to one of your messages, it shows up here.</p>
        ) : (
          <>
            <ul className="chat-mention-list">
              {mentions.map((mention) => (
                <MentionItem key={mention.id} mention={mention} />
              ))}
            </ul>
            {page.nextCursor && (
              <button
                type="button"
                className="button button--secondary button--small"
                disabled={result.state === 'loading'}
                onClick={() => {
                  setPages(mentions);
                  setCursor(page.nextCursor);
                }}
              >
                Load older mentions
              </button>
            )}
          </>
        )}
      </section>
    </div>
  );
}

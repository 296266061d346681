// A thread in the side panel: the root message, its replies (live), follow/unfollow, and a
// composer that replies in the thread.
import { useEffect, useId } from 'react';
import type { ChatMessageView, ChatRoomView, ChatStreamEvent, ChatThreadView } from '@tickerbell/jobs/chat/shapes';
import { RequestFailed, shownData, useRequest } from '../api/use-request';
import { applyToMessage, followThread, getThread, mergeMessages, postMessage, type CashtagPrice } from './chat-client';
import { Composer, MessageItem, type MessageActions } from './chat-parts';
import { subscribeChatEvents } from './chat-stream';
import { parseChatEvent } from './chat-client';

export function ChatThreadPanel({
  room,
  rootId,
  viewerId,
  prices,
  actions,
  canPost,
  onClose,
}: {
  room: ChatRoomView;
  rootId: string;
  viewerId: number | null;
  prices: Readonly<Record<string, CashtagPrice>>;
  actions: MessageActions;
  canPost: boolean;
  onClose: () => void;
}) {
  const headingId = useId();
  const [result, update, retry] = useRequest<ChatThreadView>(`thread:${rootId}`, (signal) => getThread(rootId, signal));
  const thread = shownData(result);

  useEffect(
    () =>
      subscribeChatEvents((raw) => {
        const event: ChatStreamEvent | null = parseChatEvent(raw);
        if (!event || event.roomId !== room.id) return;
        update((current) => {
          const root = applyToMessage(current.root, event, viewerId);
          let replies = current.replies.map((reply) => applyToMessage(reply, event, viewerId));
          if (event.kind === 'message' && event.message.replyToMessageId === current.root.id) replies = mergeMessages(replies, [event.message]);
          return { ...current, root, replies };
        });
      }),
    [room.id, rootId, viewerId],
  );

  const add = (message: ChatMessageView) =>
    update((current) => ({
      ...current,
      following: true,
      replies: mergeMessages(current.replies, [message]),
      root: current.replies.some((reply) => reply.id === message.id) ? current.root : { ...current.root, replyCount: current.root.replyCount + 1, lastReplyAt: message.createdAt },
    }));

  return (
    <aside className="chat-side" aria-labelledby={headingId}>
      <div className="chat-side__head">
        <h3 id={headingId}>Thread</h3>
        {thread && canPost && (
          <button
            type="button"
            className="button button--secondary button--small"
            aria-pressed={thread.following}
            onClick={() => {
              const next = !thread.following;
              update((current) => ({ ...current, following: next }));
              followThread(rootId, next).catch(() => update((current) => ({ ...current, following: !next })));
            }}
          >
            {thread.following ? 'Following' : 'Follow'}
          </button>
        )}
        <button type="button" className="button button--ghost button--small" onClick={onClose} aria-label="Close the thread">
          Close
        </button>
      </div>
      {result.state === 'failed' ? (
        <RequestFailed what="The thread" message={result.message} onRetry={retry} />
      ) : thread === null ? (
        <p role="status" className="page-loading">
          <span className="spinner" aria-hidden="true" /> Loading the thread…
        </p>
      ) : (
        <>
          <ol className="chat-messages chat-messages--thread" aria-label="Thread messages">
            <MessageItem message={thread.root} viewerId={viewerId} prices={prices} actions={actions} canPost={canPost} showThreadSummary={false} />
            <li className="chat-thread-count" aria-hidden="true">
              {thread.replies.length === 0 ? 'No replies yet' : thread.replies.length === 1 ? '1 reply' : `${thread.replies.length} replies`}
            </li>
            {thread.replies.map((reply) => (
              <MessageItem key={reply.id} message={reply} viewerId={viewerId} prices={prices} actions={{ ...actions, onReply: undefined }} canPost={canPost} />
            ))}
          </ol>
          <Composer
            room={room}
            label="Reply in the thread"
            placeholder="Reply…"
            autoFocus
            disabledReason={canPost ? undefined : <p className="empty-state">Join the room to reply.</p>}
            onSend={async (text, sentiment) => {
              const message = await postMessage(room.id, { text, replyToMessageId: rootId, ...(sentiment ? { sentiment } : {}) });
              add(message);
            }}
          />
        </>
      )}
    </aside>
  );
}

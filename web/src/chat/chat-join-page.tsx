// /dashboard/chat/join/:code: where a private room's invite link opens. A card with the room (name,
// description, members) and "Join room" (or "Open room" for a member already, which spends no use);
// an unknown, expired, revoked or used-up link says so, with the way back to the rooms. A code that
// cannot be one (not base64url, 16..64 characters) is not sent to the api at all.
import { useId, useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { messageOf } from '../accounts/auth-client';
import { ApiError } from '../api/client';
import { RequestFailed, useRequest } from '../api/use-request';
import { CHAT_PATH, INVALID_INVITE, acceptInvite, chatRoomPath, formatFull, isInviteCode, previewInvite } from './chat-client';
import { ChatTabs } from './chat-page';
import './chat.css';

/** Statuses that mean "this link does not let you in": no such invite (404), not a code (400). */
const INVALID_STATUSES = new Set([400, 404]);

function Invalid({ headingId, message = INVALID_INVITE }: { headingId: string; message?: string }) {
  return (
    <>
      <h2 id={headingId}>Invite link</h2>
      <p className="form-message form-message--error" role="alert">
        {message}
      </p>
      <p>
        Ask the person who sent it for a new link, or <Link to={CHAT_PATH}>go back to the chat rooms</Link>.
      </p>
    </>
  );
}

function Invite({ code, headingId }: { code: string; headingId: string }) {
  const navigate = useNavigate();
  const [result, , retry] = useRequest(`invite:${code}`, (signal) => previewInvite(code, signal));
  const [joining, setJoining] = useState(false);
  const [error, setError] = useState<string | null>(null);

  if (result.state === 'failed') {
    if (INVALID_STATUSES.has(result.status)) return <Invalid headingId={headingId} />;
    // 403: banned from the room (the api says until when).
    if (result.status === 403) return <Invalid headingId={headingId} message={result.message} />;
    return (
      <>
        <h2 id={headingId}>Invite link</h2>
        <RequestFailed what="The invite" message={result.message} onRetry={retry} />
        <p>
          <Link to={CHAT_PATH}>Back to the chat rooms</Link>
        </p>
      </>
    );
  }
  if (result.state === 'loading') {
    return (
      <>
        <h2 id={headingId} className="visually-hidden">
          Invite link
        </h2>
        <p role="status" className="page-loading">
          <span className="spinner" aria-hidden="true" /> Loading the invite…
        </p>
      </>
    );
  }

  const { room, expiresAt, alreadyMember } = result.data;
  const join = () => {
    setJoining(true);
    setError(null);
    acceptInvite(code)
      .then((joined) => navigate(chatRoomPath(joined.id)))
      .catch((failure: unknown) => {
        setJoining(false);
        setError(failure instanceof ApiError && INVALID_STATUSES.has(failure.status) ? INVALID_INVITE : `You could not join the room: ${messageOf(failure)}`);
      });
  };
  return (
    <>
      <p className="chat-join__kicker">{alreadyMember ? 'You are a member of' : 'You are invited to'}</p>
      <h2 id={headingId}>{room.name}</h2>
      {room.description && <p className="chat-join__description">{room.description}</p>}
      <p className="chat-muted">
        Private room · {room.members.toLocaleString('en-US')} {room.members === 1 ? 'member' : 'members'}
        {!alreadyMember && (
          <>
            {' '}
            · link valid until <time dateTime={expiresAt}>{formatFull(expiresAt)}</time>
          </>
        )}
      </p>
      {error && (
        <p className="form-message form-message--error" role="alert">
          {error}
        </p>
      )}
      <div className="chat-dialog__buttons">
        {alreadyMember ? (
          <Link to={chatRoomPath(room.id)} className="button button--primary">
            Open room
          </Link>
        ) : (
          <button type="button" className="button button--primary" disabled={joining} onClick={join}>
            {joining ? 'Joining…' : 'Join room'}
          </button>
        )}
        <Link to={CHAT_PATH} className="button button--secondary">
          All rooms
        </Link>
      </div>
    </>
  );
}

export function ChatJoinPage() {
  const headingId = useId();
  const code = useParams().code ?? '';
  return (
    <div className="chat-page chat-page--join">
      <header className="chat-page__head">
        <h1>Chat</h1>
        <ChatTabs mentions={null} />
      </header>
      <section className="dashboard-panel chat-join" aria-labelledby={headingId}>
        {isInviteCode(code) ? <Invite key={code} code={code} headingId={headingId} /> : <Invalid headingId={headingId} />}
      </section>
    </div>
  );
}

// "Members", a room's side panel: who is in it and with what role (owner, moderators, then members by
// name, paged). The room's moderators also see who is muted or banned and until when; its owner makes
// a member a moderator or removes one from here.
import { useEffect, useId, useRef, useState } from 'react';
import type { ChatMemberView, ChatMembersPage } from '@tickerbell/jobs/chat/shapes';
import { messageOf } from '../accounts/auth-client';
import { LoadMore, RequestFailed, shownData, useLoadMore, useRequest } from '../api/use-request';
import { formatUntil, getMembers, moderate, parseChatEvent } from './chat-client';
import { subscribeChatEvents } from './chat-stream';
import { usePanelFocus } from './chat-parts';

const ROLE_NAMES = { owner: 'Owner', moderator: 'Moderator', member: 'Member' } as const;

type RoleAction = 'promote' | 'demote' | 'transfer_ownership';

function Member({ member, viewerId, canAppoint, busy, onRole }: { member: ChatMemberView; viewerId: number | null; canAppoint: boolean; busy: boolean; onRole: (member: ChatMemberView, action: RoleAction) => void }) {
  const [confirming, setConfirming] = useState(false);
  const banned = member.bannedUntil ?? null;
  const muted = member.mutedUntil ?? null;
  const appointable = canAppoint && member.user.id !== viewerId && member.role !== 'owner' && !banned;
  return (
    <li className="chat-mod-item chat-member">
      <p>
        <strong>{member.user.name}</strong>
        {member.user.id === viewerId && <span className="chat-muted"> (you)</span>}
        {member.role !== 'member' && <span className="chat-muted"> · {ROLE_NAMES[member.role]}</span>}
      </p>
      {(muted || banned) && (
        <p className="chat-muted">
          {banned ? `Banned ${formatUntil(banned)}` : `Muted ${formatUntil(muted)}`}
        </p>
      )}
      {appointable && confirming && (
        <div className="chat-mod-item__confirm" role="group" aria-label={`Hand the room over to ${member.user.name}`}>
          <p>
            {member.user.name} becomes the room’s owner; you become a moderator (and may then leave). Only the owner changes the room’s settings and appoints
            moderators.
          </p>
          <div className="chat-mod-item__buttons">
            <button type="button" className="button button--danger button--small" disabled={busy} onClick={() => onRole(member, 'transfer_ownership')}>
              Hand over to {member.user.name}
            </button>
            <button type="button" className="button button--secondary button--small" onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </div>
        </div>
      )}
      {appointable && !confirming && (
        <div className="chat-mod-item__buttons">
          {member.role === 'moderator' ? (
            <button type="button" className="button button--secondary button--small" disabled={busy} aria-label={`Remove moderator: ${member.user.name}`} onClick={() => onRole(member, 'demote')}>
              Remove moderator
            </button>
          ) : (
            <button type="button" className="button button--secondary button--small" disabled={busy} aria-label={`Make moderator: ${member.user.name}`} onClick={() => onRole(member, 'promote')}>
              Make moderator
            </button>
          )}
          <button type="button" className="button button--secondary button--small" disabled={busy} aria-label={`Make owner: ${member.user.name}`} onClick={() => setConfirming(true)}>
            Make owner…
          </button>
        </div>
      )}
    </li>
  );
}

export function MembersPanel({ roomId, viewerId, canAppoint, onClose }: { roomId: number; viewerId: number | null; canAppoint: boolean; onClose: () => void }) {
  const headingId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  const key = `members:${roomId}`;
  const [result, update, retry] = useRequest(key, (signal) => getMembers(roomId, null, signal));
  const data = shownData(result);
  const { more, loadMore } = useLoadMore(key, data?.nextCursor, (cursor) => getMembers(roomId, cursor), update, (shown: ChatMembersPage, page: ChatMembersPage) => {
    const ids = new Set(shown.members.map((member) => member.user.id));
    return { members: [...shown.members, ...page.members.filter((member) => !ids.has(member.user.id))], nextCursor: page.nextCursor };
  });
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<{ text: string; error: boolean } | null>(null);

  usePanelFocus(headingRef);

  // Someone joined or left, or a role changed: the list is read again.
  useEffect(
    () =>
      subscribeChatEvents((raw) => {
        const event = parseChatEvent(raw);
        if (event?.roomId === roomId && (event.kind === 'member' || event.kind === 'standing')) retry();
      }),
    [roomId],
  );

  const changeRole = (member: ChatMemberView, action: RoleAction) => {
    setBusy(true);
    setNotice(null);
    moderate(roomId, { action, userId: member.user.id })
      .then(() => {
        const done = { promote: `${member.user.name} is now a moderator.`, demote: `${member.user.name} is no longer a moderator.`, transfer_ownership: `${member.user.name} owns the room now; you are a moderator.` };
        setNotice({ text: done[action], error: false });
        retry();
      })
      .catch((error: unknown) => setNotice({ text: messageOf(error), error: true }))
      .finally(() => setBusy(false));
  };

  return (
    <aside className="chat-side" aria-labelledby={headingId}>
      <div className="chat-side__head">
        <h3 id={headingId} ref={headingRef} tabIndex={-1}>
          Members
        </h3>
        <button type="button" className="button button--ghost button--small" onClick={onClose} aria-label="Close members">
          Close
        </button>
      </div>
      {notice && (
        <p className={`form-message ${notice.error ? 'form-message--error' : 'form-message--success'}`} role={notice.error ? 'alert' : 'status'}>
          {notice.text}
        </p>
      )}
      {result.state === 'failed' ? (
        <RequestFailed what="The members" message={result.message} onRetry={retry} />
      ) : data === null ? (
        <p role="status" className="page-loading">
          <span className="spinner" aria-hidden="true" /> Loading the members…
        </p>
      ) : (
        <>
          <ul className="chat-mod-list" aria-label="Members of the room">
            {data.members.map((member) => (
              <Member key={member.user.id} member={member} viewerId={viewerId} canAppoint={canAppoint} busy={busy} onRole={changeRole} />
            ))}
          </ul>
          <LoadMore className="chat-more" more={more} hasNext={!!data.nextCursor} onLoadMore={loadMore} label="Load more members" failed="More members could not be loaded" />
        </>
      )}
    </aside>
  );
}

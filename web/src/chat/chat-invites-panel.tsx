// "Invite people", the side panel of a private room's owner and moderators: make an invite link
// (how long it lasts, how many may use it), shown in full once with a Copy button (the api keeps only
// its hash), and the links still active, with who made them, when they expire, their uses and Revoke.
// Someone joining the room re-reads the links (a use counts, a used-up link leaves the list).
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import type { ChatInviteCreatedView, ChatInviteView } from '@tickerbell/jobs/chat/shapes';
import { messageOf } from '../accounts/auth-client';
import { RequestFailed, shownData, useRequest } from '../api/use-request';
import { INVITE_DEFAULT_HOURS, INVITE_EXPIRY_CHOICES, INVITE_USES_CHOICES, createInvite, formatFull, formatUses, getInvites, parseChatEvent, revokeInvite } from './chat-client';
import { subscribeChatEvents } from './chat-stream';
import { usePanelFocus } from './chat-parts';
import { LabelledControl } from '../layout/form-field';

/** The link as people open it: the api's path on this site's origin. */
export function inviteLink(created: Pick<ChatInviteCreatedView, 'url'>, origin = window.location.origin): string {
  return new URL(created.url, origin).href;
}

function NewLink({ created, onDismiss }: { created: ChatInviteCreatedView; onDismiss: () => void }) {
  const inputId = useId();
  const hintId = useId();
  const [copyStatus, setCopyStatus] = useState<string | null>(null);
  const inputRef = useRef<HTMLTextAreaElement>(null);
  const link = inviteLink(created);
  // The button that made it was disabled while it worked (focus fell to the page): the link takes
  // focus, selected, ready for Copy or the keyboard's copy.
  useEffect(() => inputRef.current?.focus(), []);
  const copy = async () => {
    try {
      if (!navigator.clipboard) throw new Error('no clipboard');
      await navigator.clipboard.writeText(link);
      setCopyStatus('Copied.');
    } catch {
      inputRef.current?.select();
      setCopyStatus('Could not copy: the link is selected, copy it by hand.');
    }
  };
  return (
    <div className="chat-invite-new">
      <label htmlFor={inputId} className="form-field__label">
        New invite link
      </label>
      <div className="chat-invite-new__row">
        {/* The whole link, wrapped: a one-line field would hide its code. */}
        <textarea
          ref={inputRef}
          id={inputId}
          className="form-field__input"
          readOnly
          rows={3}
          spellCheck={false}
          value={link}
          aria-describedby={hintId}
          onFocus={(event) => event.target.select()}
        />
        <button type="button" className="button button--primary button--small" onClick={() => void copy()}>
          Copy
        </button>
      </div>
      <p id={hintId} className="form-field__hint">
        Shown this once: copy it now. Expires {formatFull(created.expiresAt)} · {created.maxUses === null ? 'no use limit' : `${created.maxUses} ${created.maxUses === 1 ? 'use' : 'uses'}`}.
      </p>
      <p className="form-field__hint" role="status">
        {copyStatus}
      </p>
      <button type="button" className="button button--ghost button--small" onClick={onDismiss}>
        Done
      </button>
    </div>
  );
}

function InviteItem({ invite, busy, onRevoke }: { invite: ChatInviteView; busy: boolean; onRevoke: () => void }) {
  const maker = invite.createdBy?.name ?? 'A former member';
  return (
    <li className="chat-mod-item">
      <p>
        Made by <strong>{maker}</strong>{' '}
        <span className="chat-muted">
          · <time dateTime={invite.createdAt}>{formatFull(invite.createdAt)}</time>
        </span>
      </p>
      <p className="chat-muted">
        Expires <time dateTime={invite.expiresAt}>{formatFull(invite.expiresAt)}</time> · {formatUses(invite.uses, invite.maxUses)}
      </p>
      <div className="chat-mod-item__buttons">
        <button type="button" className="button button--danger button--small" disabled={busy} aria-label={`Revoke the link ${maker} made ${formatFull(invite.createdAt)}`} onClick={onRevoke}>
          Revoke
        </button>
      </div>
    </li>
  );
}

export function InvitesPanel({ roomId, roomName, onClose }: { roomId: number; roomName: string; onClose: () => void }) {
  const headingId = useId();
  const [result, update, retry] = useRequest(`invites:${roomId}`, (signal) => getInvites(roomId, signal));
  const [hours, setHours] = useState(INVITE_DEFAULT_HOURS);
  const [maxUses, setMaxUses] = useState<number | null>(null);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<ChatInviteCreatedView | null>(null);
  const [revoking, setRevoking] = useState<number | null>(null);
  const [notice, setNotice] = useState<{ text: string; error: boolean } | null>(null);
  const createRef = useRef<HTMLButtonElement>(null);
  const listHeadingRef = useRef<HTMLHeadingElement>(null);
  const headingRef = useRef<HTMLHeadingElement>(null);
  const invites = shownData(result);
  const active = (invites ?? []).filter((invite) => invite.active);
  const panelRef = useRef<HTMLElement>(null);

  usePanelFocus(headingRef);

  // Someone joined (by a link, most likely): the uses and the active links are read again.
  useEffect(
    () =>
      subscribeChatEvents((raw) => {
        const event = parseChatEvent(raw);
        if (event?.kind === 'member' && event.roomId === roomId && event.joined) retry();
      }),
    [roomId],
  );

  // The link just made was used up (or expired) meanwhile: it is no longer offered for copying.
  const spent = created === null || result.state !== 'ready' ? undefined : result.data.find((invite) => invite.id === created.id && !invite.active);
  useEffect(() => {
    if (!spent) return;
    const hadFocus = panelRef.current?.querySelector('.chat-invite-new')?.contains(document.activeElement) ?? false;
    const usedUp = spent.maxUses !== null && spent.uses >= spent.maxUses;
    setCreated(null);
    setNotice({ text: usedUp ? 'Your new link has been used up: it lets nobody else in.' : 'Your new link has expired or was revoked: it lets nobody in any more.', error: false });
    if (hadFocus) listHeadingRef.current?.focus();
  }, [spent?.id]);

  const create = (event: FormEvent) => {
    event.preventDefault();
    setCreating(true);
    setNotice(null);
    createInvite(roomId, { expiresInHours: hours, ...(maxUses === null ? {} : { maxUses }) })
      .then((view) => {
        setCreated(view);
        retry();
      })
      .catch((failure: unknown) => setNotice({ text: `The link was not made: ${messageOf(failure)}`, error: true }))
      .finally(() => setCreating(false));
  };

  const revoke = (invite: ChatInviteView) => {
    setRevoking(invite.id);
    setNotice(null);
    revokeInvite(roomId, invite.id)
      .then(() => {
        update((current) => current.map((entry) => (entry.id === invite.id ? { ...entry, active: false, revokedAt: new Date().toISOString() } : entry)));
        if (created?.id === invite.id) setCreated(null);
        setNotice({ text: 'The link was revoked: it lets nobody in any more.', error: false });
        // Its button is gone: focus stays in the list's place rather than falling to the page.
        listHeadingRef.current?.focus();
      })
      .catch((failure: unknown) => setNotice({ text: `The link was not revoked: ${messageOf(failure)}`, error: true }))
      .finally(() => setRevoking(null));
  };

  return (
    <aside ref={panelRef} className="chat-side" aria-labelledby={headingId}>
      <div className="chat-side__head">
        <h3 id={headingId} ref={headingRef} tabIndex={-1}>
          Invite people
        </h3>
        <button type="button" className="button button--ghost button--small" onClick={onClose} aria-label="Close invites">
          Close
        </button>
      </div>
      <section className="chat-invites" aria-label={`Invite links of ${roomName}`}>
        <p className="form-field__hint">{roomName} is private: people join it with a link. Anyone who has a link can use it until it expires, is used up or is revoked.</p>
        <form className="chat-invites__form" aria-label="Make an invite link" onSubmit={create}>
          <LabelledControl label="Expires after">
            {(props) => (
              <select {...props} value={hours} onChange={(event) => setHours(Number(event.target.value))}>
                {INVITE_EXPIRY_CHOICES.map((choice) => (
                  <option key={choice.hours} value={choice.hours}>
                    {choice.label}
                  </option>
                ))}
              </select>
            )}
          </LabelledControl>
          <LabelledControl label="Uses">
            {(props) => (
              <select {...props} value={maxUses ?? ''} onChange={(event) => setMaxUses(event.target.value === '' ? null : Number(event.target.value))}>
                {INVITE_USES_CHOICES.map((choice) => (
                  <option key={choice.label} value={choice.uses ?? ''}>
                    {choice.label}
                  </option>
                ))}
              </select>
            )}
          </LabelledControl>
          <button ref={createRef} type="submit" className="button button--primary button--small" disabled={creating}>
            {creating ? 'Making the link…' : 'Create link'}
          </button>
        </form>
        {created && (
          <NewLink
            key={created.id}
            created={created}
            onDismiss={() => {
              setCreated(null);
              createRef.current?.focus();
            }}
          />
        )}
        {notice && (
          <p className={notice.error ? 'form-message form-message--error' : 'form-message chat-notice'} role={notice.error ? 'alert' : 'status'}>
            {notice.text}
          </p>
        )}
        <h4 ref={listHeadingRef} tabIndex={-1} className="chat-invites__heading">
          Active links
        </h4>
        {result.state === 'failed' ? (
          <RequestFailed what="The invite links" message={result.message} onRetry={retry} />
        ) : invites === null ? (
          <p role="status" className="page-loading">
            <span className="spinner" aria-hidden="true" /> Loading the invite links…
          </p>
        ) : active.length === 0 ? (
          <p className="empty-state">No active link. Make one above to let people in.</p>
        ) : (
          <ul className="chat-mod-list" aria-label="Active invite links">
            {active.map((invite) => (
              <InviteItem key={invite.id} invite={invite} busy={revoking === invite.id} onRevoke={() => revoke(invite)} />
            ))}
          </ul>
        )}
      </section>
    </aside>
  );
}

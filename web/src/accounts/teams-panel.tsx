// Settings → Teams: my teams and their members; owners and admins also invite, revoke pending
// invitations, change roles and remove members. The api decides: its 403s show as messages.
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import { messageOf } from './auth-client';
import {
  TEAM_ROLES,
  canActOn,
  canManage,
  changeMemberRole,
  createTeam,
  fieldErrorsOf,
  getInvitations,
  getMembers,
  getTeams,
  grantableRoles,
  inviteMember,
  removeMember,
  revokeInvitation,
  type InvitationRow,
  type TeamMemberRow,
  type TeamRole,
  type TeamSummary,
} from './account-client';

const ROLE_LABELS: Record<TeamRole, string> = { owner: 'Owner', admin: 'Admin', member: 'Member' };

function memberLabel(member: TeamMemberRow): string {
  return member.name ?? member.email;
}

function TeamCard({ team }: { team: TeamSummary }) {
  const manager = canManage(team.role);
  const [members, setMembers] = useState<TeamMemberRow[]>([]);
  const [invitations, setInvitations] = useState<InvitationRow[]>([]);
  const [message, setMessage] = useState<{ kind: 'error' | 'success'; text: string } | null>(null);
  const [inviteEmail, setInviteEmail] = useState('');
  const [inviteRole, setInviteRole] = useState<TeamRole>('member');
  const [busy, setBusy] = useState(false);

  const load = useCallback(async (): Promise<void> => {
    try {
      setMembers(await getMembers(team.id));
      if (manager) setInvitations(await getInvitations(team.id));
    } catch (error) {
      setMessage({ kind: 'error', text: messageOf(error) });
    }
  }, [team.id, manager]);

  useEffect(() => {
    void load();
  }, [load]);

  const run = async (action: () => Promise<unknown>, success: string): Promise<void> => {
    setBusy(true);
    setMessage(null);
    try {
      await action();
      setMessage({ kind: 'success', text: success });
      await load();
    } catch (error) {
      setMessage({ kind: 'error', text: messageOf(error) });
    } finally {
      setBusy(false);
    }
  };

  const onInvite = (event: FormEvent<HTMLFormElement>): void => {
    event.preventDefault();
    const email = inviteEmail.trim();
    void run(async () => {
      await inviteMember(team.id, email, inviteRole);
      setInviteEmail('');
    }, `Invitation sent to ${email}.`);
  };

  const pending = invitations.filter((invitation) => invitation.status === 'pending');
  const titleId = `team-${team.id}-title`;

  return (
    <article className="team-card" aria-labelledby={titleId}>
      <h3 id={titleId}>
        {team.name} <span className="team-card__role">({ROLE_LABELS[team.role]})</span>
      </h3>
      {message && (
        <p className={`form-message form-message--${message.kind}`} role={message.kind === 'error' ? 'alert' : 'status'}>
          {message.text}
        </p>
      )}
      <table className="data-table">
        <caption>Members of {team.name}</caption>
        <thead>
          <tr>
            <th scope="col">Member</th>
            <th scope="col">Role</th>
            {manager && <th scope="col">Actions</th>}
          </tr>
        </thead>
        <tbody>
          {members.map((member) => {
            const editable = canActOn(team.role, member.role);
            return (
              <tr key={member.userId}>
                <td>
                  {memberLabel(member)}
                  {member.name && <span className="form-field__hint"> {member.email}</span>}
                </td>
                <td>
                  {manager && editable ? (
                    <select
                      aria-label={`Role of ${memberLabel(member)}`}
                      value={member.role}
                      disabled={busy}
                      onChange={(event) =>
                        void run(() => changeMemberRole(team.id, member.userId, event.target.value as TeamRole), `${memberLabel(member)} is now ${ROLE_LABELS[event.target.value as TeamRole]}.`)
                      }
                    >
                      {TEAM_ROLES.filter((r) => r === member.role || grantableRoles(team.role).includes(r)).map((r) => (
                        <option key={r} value={r}>
                          {ROLE_LABELS[r]}
                        </option>
                      ))}
                    </select>
                  ) : (
                    ROLE_LABELS[member.role]
                  )}
                </td>
                {manager && (
                  <td>
                    {editable && (
                      <button
                        type="button"
                        className="button button--ghost"
                        disabled={busy}
                        onClick={() => void run(() => removeMember(team.id, member.userId), `${memberLabel(member)} was removed.`)}
                      >
                        Remove {memberLabel(member)}
                      </button>
                    )}
                  </td>
                )}
              </tr>
            );
          })}
        </tbody>
      </table>
      {manager && (
        <>
          <h4>Pending invitations</h4>
          {pending.length === 0 ? (
            <p>No pending invitations.</p>
          ) : (
            <ul className="invitation-list">
              {pending.map((invitation) => (
                <li key={invitation.id}>
                  {invitation.email} as {ROLE_LABELS[invitation.role]}{' '}
                  <button
                    type="button"
                    className="button button--ghost"
                    disabled={busy}
                    onClick={() => void run(() => revokeInvitation(team.id, invitation.id), `Invitation to ${invitation.email} revoked.`)}
                  >
                    Revoke invitation to {invitation.email}
                  </button>
                </li>
              ))}
            </ul>
          )}
          <form className="form form--inline" aria-label={`Invite to ${team.name}`} onSubmit={onInvite}>
            <label className="form-field">
              <span className="form-field__label">Email to invite</span>
              <input className="form-field__input" type="email" required value={inviteEmail} onChange={(event) => setInviteEmail(event.target.value)} />
            </label>
            <label className="form-field">
              <span className="form-field__label">Invite as</span>
              <select className="form-field__input" value={inviteRole} onChange={(event) => setInviteRole(event.target.value as TeamRole)}>
                {grantableRoles(team.role).map((r) => (
                  <option key={r} value={r}>
                    {ROLE_LABELS[r]}
                  </option>
                ))}
              </select>
            </label>
            <button type="submit" className="button button--primary" disabled={busy || inviteEmail.trim() === ''}>
              Send invitation
            </button>
          </form>
        </>
      )}
    </article>
  );
}

export function TeamsPanel() {
  const [teams, setTeams] = useState<TeamSummary[] | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [newName, setNewName] = useState('');
  const [creating, setCreating] = useState(false);

  const onCreate = async (event: FormEvent<HTMLFormElement>): Promise<void> => {
    event.preventDefault();
    setCreating(true);
    setFailure(null);
    try {
      const created = await createTeam(newName.trim());
      setTeams((current) => [...(current ?? []), created]);
      setNewName('');
    } catch (error) {
      setFailure(fieldErrorsOf(error).name ? `Team name ${fieldErrorsOf(error).name}` : messageOf(error));
    } finally {
      setCreating(false);
    }
  };

  useEffect(() => {
    const controller = new AbortController();
    getTeams(controller.signal).then(setTeams, (error: unknown) => {
      if (!controller.signal.aborted) setFailure(messageOf(error));
    });
    return () => controller.abort();
  }, []);

  return (
    <section className="dashboard-panel" aria-labelledby="teams-title">
      <h2 id="teams-title">Teams</h2>
      {failure && (
        <p className="form-message form-message--error" role="alert">
          {failure}
        </p>
      )}
      {teams?.length === 0 && <p>You are not a member of any team.</p>}
      {teams?.map((team) => <TeamCard key={team.id} team={team} />)}
      <form className="form form--inline" aria-label="Create a team" onSubmit={(event) => void onCreate(event)}>
        <label className="form-field">
          <span className="form-field__label">New team name</span>
          <input className="form-field__input" maxLength={100} value={newName} onChange={(event) => setNewName(event.target.value)} />
        </label>
        <button type="submit" className="button button--secondary" disabled={creating || newName.trim() === ''}>
          Create team
        </button>
      </form>
    </section>
  );
}
